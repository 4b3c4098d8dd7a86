# Licensed under the Apache License, Version 2.0 (the "License"); you may
# not use this file except in compliance with the License. You may obtain
# a copy of the License at
#
#      http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
# License for the specific language governing permissions and limitations
# under the License.
"""The package's modules (and the benchmarks') import each other without a
circle; user_side/ (what the console script, `openstack lifecycle` and the
dashboard read stacks with) needs no server side, and neither it nor
host_checks/ reaches into the commands.

The graph is read from the source (benchmarks/closure.py: ast, imports
inside functions included): a late import hides a circle from Python, not
from a reader.
"""

import ast
import os

import pytest

from benchmarks import closure

PACKAGE = 'heat_lifecycle_plugins'


def import_graph(package=PACKAGE):
    return closure.import_graph((package,))


def circle_from(start, graph):
    """A list of modules that leads from `start` back to it, or None."""
    paths = [[start]]
    seen = set()
    while paths:
        path = paths.pop()
        for target in sorted(graph[path[-1]]):
            if target == start:
                return path + [start]
            if target not in seen:
                seen.add(target)
                paths.append(path + [target])
    return None


def test_the_graph_is_read():
    graph = import_graph()
    assert len(graph) > 40
    assert 'heat_lifecycle_plugins.releases' in \
        graph['heat_lifecycle_plugins.heat_contract']


@pytest.mark.parametrize('package', [PACKAGE, 'benchmarks'])
def test_no_import_circle(package):
    graph = import_graph(package)
    circles = [circle_from(module, graph) for module in sorted(graph)]
    assert [c for c in circles if c] == []


def test_the_contract_stands_below_the_boundary():
    graph = import_graph()
    assert 'heat_lifecycle_plugins.heat_contract' in \
        graph['heat_lifecycle_plugins.heat_internals']
    assert graph['heat_lifecycle_plugins.heat_contract'] == {
        'heat_lifecycle_plugins.releases'}


USER_SIDE = PACKAGE + '.user_side'
HOST_CHECKS = PACKAGE + '.host_checks'
# What the front ends over user_side/ (a Horizon host among them) must not
# need: Heat's or Mistral's server code, oslo.config (the engine side's
# options are registered on it).
SERVER_SIDE = ('heat', 'mistral', 'oslo_config')
ENGINE_OPTIONS = (PACKAGE + '.config', PACKAGE + '.engine_options')


def modules_under(package, graph):
    return sorted(m for m in graph if m.startswith(package + '.'))


def closure_of(roots, graph):
    """The package's modules the roots import, directly or not."""
    seen, todo = set(), list(roots)
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(graph[module])
    return seen


def outside_imports(module):
    """Top names of everything `module` imports (in functions too)."""
    return top_names(closure.package_modules((PACKAGE,))[module])


def top_names(path):
    """Top names of everything a file imports (in functions too)."""
    with open(os.path.join(closure.ROOT, path)) as f:
        tree = ast.parse(f.read(), path)
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split('.')[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split('.')[0])
    return names


def test_user_side_needs_no_server_side():
    graph = import_graph()
    roots = modules_under(USER_SIDE, graph)
    assert USER_SIDE + '.diagnosis' in roots
    reached = closure_of(roots, graph)
    assert sorted(reached & set(ENGINE_OPTIONS)) == []
    found = {module: sorted(outside_imports(module) & set(SERVER_SIDE))
             for module in sorted(reached)}
    assert {m: names for m, names in found.items() if names} == {}


@pytest.mark.parametrize('package', [USER_SIDE, HOST_CHECKS])
def test_the_libraries_do_not_import_the_commands(package):
    graph = import_graph()
    roots = modules_under(package, graph)
    assert roots
    reached = closure_of(roots, graph)
    assert sorted(m for m in reached
                  if m.startswith(PACKAGE + '.cmd') or
                  m.startswith(PACKAGE + '.osc')) == []


DASHBOARD = 'heat_lifecycle_dashboard'
SERVERS = ('heat', 'mistral')


def test_the_dashboard_reaches_the_library_through_one_module():
    # The tab through lifecycle_data; the operator's host check
    # (host_check, not loaded by Horizon) takes only the check line format.
    graph = closure.import_graph((DASHBOARD, PACKAGE))
    reaching = sorted(m for m in graph if m.startswith(DASHBOARD + '.') and
                      any(t.startswith(PACKAGE) for t in graph[m]))
    assert reaching == [DASHBOARD + '.host_check',
                        DASHBOARD + '.lifecycle_data']
    assert graph[DASHBOARD + '.host_check'] & {
        m for m in graph if m.startswith(PACKAGE)} == {
        PACKAGE + '.host_checks.checks'}


def test_the_dashboard_imports_neither_heat_nor_mistral_servers():
    packages = (DASHBOARD, PACKAGE)
    roots = [m for m in closure.package_modules(packages)
             if m.startswith(DASHBOARD)]
    files = closure.files_of(roots, packages)
    assert 'heat_lifecycle_plugins/user_side/cause.py' in files
    importing = {path: sorted(top_names(path) & set(SERVERS))
                 for path in files}
    assert {p: n for p, n in importing.items() if n} == {}
