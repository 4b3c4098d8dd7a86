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

The graph is read from the source (benchmarks/closure.py: ast, imports
inside functions included): a late import hides a circle from Python, not
from a reader.
"""

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
