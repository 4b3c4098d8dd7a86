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
"""The project's import graph, and the files a measurement depends on.

Read from the source (ast), imports inside functions included: a late
import hides a dependency from Python, not from a reader. A part's result
is stale when any file of the import closure of what it measures changed
after it (benchmarks/parts.py names the roots, stamp.stale decides).
"""

import ast
import functools
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = ('heat_lifecycle_plugins', 'heat_lifecycle_fixtures',
            'benchmarks')


@functools.lru_cache(maxsize=None)
def package_modules(packages=PACKAGES):
    """{dotted module name: path relative to ROOT} of the packages."""
    modules = {}
    for package in packages:
        for folder, _dirs, files in os.walk(os.path.join(ROOT, package)):
            for name in files:
                if not name.endswith('.py'):
                    continue
                path = os.path.relpath(os.path.join(folder, name), ROOT)
                dotted = path[:-3].replace(os.sep, '.')
                modules[dotted.rsplit('.__init__', 1)[0]] = path
    return modules


def imported(module, path, modules):
    """The modules of `modules` that `module` (at `path`) imports."""
    with open(os.path.join(ROOT, path)) as f:
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


@functools.lru_cache(maxsize=None)
def import_graph(packages=PACKAGES):
    """{module: {modules it imports}} within the packages.

    Read once a process (a report judges every part and profile by it);
    callers must not change what they get.
    """
    modules = package_modules(packages)
    return {module: imported(module, path, modules)
            for module, path in modules.items()}


def files_of(roots, packages=PACKAGES):
    """Sorted paths (relative to ROOT) of the roots' import closure.

    roots: dotted module names of the packages, or paths of other files
    (a template, a data file), kept as they are.
    """
    modules = package_modules(packages)
    graph = import_graph(packages)
    seen, todo, others = set(), [], set()
    for root in roots:
        if root in modules:
            todo.append(root)
        else:
            others.add(root)
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        todo.extend(graph[module] - seen)
    return sorted({modules[m] for m in seen} | others)
