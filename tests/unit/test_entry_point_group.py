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
"""The entry-point group read as every supported Python returns it."""

import importlib.metadata

from heat_lifecycle_plugins import registry

OURS = importlib.metadata.EntryPoint(
    'OS::Test::Ours', 'pkg.mod:Ours', registry.NAMESPACE)
OTHER = importlib.metadata.EntryPoint(
    'other', 'pkg.other:main', 'console_scripts')


class Selectable(dict):
    """Python 3.10 and later: entry_points() has select(group=...)."""

    def select(self, group):
        return [ep for eps in self.values() for ep in eps
                if ep.group == group]


def test_python39_dict_of_groups(monkeypatch):
    # Python 3.9: a plain dict, and entry_points() takes no keyword.
    def entry_points():
        return {registry.NAMESPACE: (OURS,), 'console_scripts': (OTHER,)}
    monkeypatch.setattr(importlib.metadata, 'entry_points', entry_points)
    assert registry.entry_points() == [('OS::Test::Ours', 'pkg.mod:Ours')]


def test_python39_without_the_group(monkeypatch):
    monkeypatch.setattr(importlib.metadata, 'entry_points',
                        lambda: {'console_scripts': (OTHER,)})
    assert registry.entry_points() == []


def test_select_on_later_pythons(monkeypatch):
    every = Selectable({registry.NAMESPACE: (OURS,),
                        'console_scripts': (OTHER,)})
    monkeypatch.setattr(importlib.metadata, 'entry_points', lambda: every)
    assert registry.group_entry_points('console_scripts') == [OTHER]
    assert registry.entry_points() == [('OS::Test::Ours', 'pkg.mod:Ours')]
