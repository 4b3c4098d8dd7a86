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
circle.

The graph is read from the source (ast), imports inside functions
included: a late import hides a circle from Python, not from a reader.
"""

import ast
import os

import pytest

PACKAGE = 'heat_lifecycle_plugins'
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def package_modules(package=PACKAGE):
    """{dotted module name: file path} of every module of the package."""
    modules = {}
    for folder, _dirs, files in os.walk(os.path.join(ROOT, package)):
        for name in files:
            if not name.endswith('.py'):
                continue
            path = os.path.join(folder, name)
            dotted = os.path.relpath(path, ROOT)[:-3].replace(os.sep, '.')
            modules[dotted.rsplit('.__init__', 1)[0]] = path
    return modules


def imported(module, path, modules):
    """The package's modules that `module` imports."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in modules)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            for alias in node.names:
                full = '%s.%s' % (node.module, alias.name)
                if full in modules:
                    found.add(full)
                elif node.module in modules:
                    found.add(node.module)
    found.discard(module)
    return found


def import_graph(package=PACKAGE):
    modules = package_modules(package)
    return {module: imported(module, path, modules)
            for module, path in modules.items()}


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
