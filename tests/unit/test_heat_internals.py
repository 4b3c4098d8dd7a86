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
"""The boundary to Heat's internals holds on the installed Heat.

It fails naming the name when it does not, and nothing bypasses it.
"""

import ast
import importlib
import inspect
import os

import pytest

from heat_lifecycle_plugins import heat_contract
from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins import registry

PACKAGE = os.path.dirname(heat_internals.__file__)
IN_TREE_SD = heat_contract.load(heat_contract.IN_TREE_SOFTWARE_DEPLOYMENT)


def test_every_internal_name_holds_on_the_installed_heat():
    problems = heat_contract.contract_problems()
    assert not problems, 'Heat %s:\n%s' % (
        '.'.join(map(str, heat_internals.heat_version())),
        '\n'.join(problems))


def test_a_renamed_private_method_fails_the_check_naming_it(monkeypatch):
    method = IN_TREE_SD.__dict__['_load_config']
    monkeypatch.delattr(IN_TREE_SD, '_load_config')
    monkeypatch.setattr(IN_TREE_SD, '_load_config_v2', method, raising=False)
    problems = heat_contract.contract_problems()
    assert problems == [
        '%s._load_config is missing: type object \'SoftwareDeployment\' has '
        'no attribute \'_load_config\' (used by '
        'software_deployment.SoftwareDeployment (overridden: ids the '
        'database cannot hold, then called))'
        % heat_contract.IN_TREE_SOFTWARE_DEPLOYMENT]


def test_a_changed_signature_fails_the_check_naming_both(monkeypatch):
    def _build_properties(self, config_id, action, status):
        return {}
    monkeypatch.setattr(IN_TREE_SD, '_build_properties', _build_properties)
    problems = heat_contract.contract_problems()
    assert len(problems) == 1
    assert problems[0].startswith(
        '%s._build_properties has signature (self, config_id, action, '
        'status), expected (self, config_id, action)'
        % heat_contract.IN_TREE_SOFTWARE_DEPLOYMENT)


def test_an_override_heat_no_longer_calls_fails_the_check(monkeypatch):
    def handle_suspend(self):
        return None
    monkeypatch.setattr(IN_TREE_SD, 'handle_suspend', handle_suspend)
    assert heat_contract.contract_problems() == [
        '%s.handle_suspend no longer refers to _handle_action (used by '
        'software_deployment.SoftwareDeployment)'
        % heat_contract.IN_TREE_SOFTWARE_DEPLOYMENT]


def test_a_name_holds_only_for_the_releases_it_is_declared_for():
    name = heat_contract.Name('heat.nowhere:gone', since=(25, 0, 0),
                              until=(26, 0, 0))
    assert not heat_contract.applies(name, (24, 1, 2))
    assert heat_contract.applies(name, (25, 0, 2))
    assert not heat_contract.applies(name, (26, 0, 0))
    assert heat_contract.name_problem(name).startswith(
        'heat.nowhere:gone is missing: No module named \'heat.nowhere\'')


# -- nothing bypasses the boundary ------------------------------------------

def package_modules():
    """Every module of the package but the fixtures.

    The fixtures run Heat rather than plug into it (see heat_internals'
    docstring).
    """
    for folder, _, files in os.walk(PACKAGE):
        if os.path.relpath(folder, PACKAGE).split(os.sep)[0] == 'fixtures':
            continue
        for name in sorted(files):
            if name.endswith('.py'):
                yield os.path.join(folder, name)


def heat_imports(path):
    """(line, imported name) of every `heat` import of a source file."""
    with open(path) as f:
        tree = ast.parse(f.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split('.')[0] == 'heat':
                    yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and \
                node.module.split('.')[0] == 'heat':
            for alias in node.names:
                yield node.lineno, '%s.%s' % (node.module, alias.name)


def in_plugin_api(name):
    return any(name == m or name.startswith(m + '.')
               for m in heat_internals.PLUGIN_API_MODULES)


def test_only_heat_internals_imports_heat_beyond_the_plugin_api():
    outside = []
    for path in package_modules():
        if path == heat_internals.__file__:
            continue
        outside += ['%s:%d %s' % (os.path.relpath(path, PACKAGE), line, name)
                    for line, name in heat_imports(path)
                    if not in_plugin_api(name)]
    assert not outside, ('imports of Heat internals outside '
                         'heat_internals.py: %s' % outside)


def our_resource_classes():
    for _, target in registry.entry_points():
        module = importlib.import_module(target.split(':')[0])
        if module.__name__.startswith('heat_lifecycle_plugins.'):
            yield getattr(module, target.split(':')[1])


def underscore_names(cls):
    """_names the source of a class and its mixins reads or defines.

    Every class of ours in its MRO (not dunders).
    """
    used = set()
    for part in cls.__mro__:
        if part.__module__.startswith('heat_lifecycle_plugins.'):
            tree = ast.parse(inspect.getsource(part))
            used |= {n.attr for n in ast.walk(tree)
                     if isinstance(n, ast.Attribute)} | set(vars(part))
    return {n for n in used if n.startswith('_') and not n.startswith('__')}


def heat_owner(cls, name):
    """The Heat class in cls's MRO that defines name, or None."""
    for base in cls.__mro__:
        if base.__module__.split('.')[0] == 'heat' and name in vars(base):
            return base
    return None


def declared_on(cls, name):
    for target in heat_contract.declared_targets():
        owner, _, last = target.rpartition('.')
        if last == name and ':' in owner:
            try:
                if heat_contract.load(owner) in cls.__mro__:
                    return True
            except (ImportError, AttributeError):
                continue
    return False


@pytest.mark.parametrize('cls', list(our_resource_classes()),
                         ids=lambda c: c.__name__)
def test_every_private_heat_name_a_type_uses_is_declared(cls):
    undeclared = sorted(
        '%s.%s' % (heat_owner(cls, n).__name__, n)
        for n in underscore_names(cls)
        if heat_owner(cls, n) is not None and not declared_on(cls, n))
    assert not undeclared, (
        '%s uses private Heat names not declared in heat_contract.CONTRACT:'
        ' %s' % (cls.__name__, undeclared))


def stack_attributes(path):
    """(line, name) of every `self.stack.NAME` a source file reads."""
    with open(path) as f:
        tree = ast.parse(f.read())
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and
                isinstance(node.value, ast.Attribute) and
                node.value.attr == 'stack' and
                isinstance(node.value.value, ast.Name) and
                node.value.value.id == 'self'):
            yield node.lineno, node.attr


def declared_stack_names():
    """The attributes of Heat's Stack that CONTRACT declares."""
    found = set()
    prefix = heat_contract.STACK + '.'
    for name in heat_contract.CONTRACT:
        if name.target.startswith(prefix):
            attr = name.target[len(prefix):]
            found.add(attr)
            if attr == '__init__':
                found.update(name.refers_to)
    return found


def test_every_stack_attribute_the_package_reads_is_declared():
    declared = declared_stack_names()
    undeclared = ['%s:%d stack.%s' % (os.path.relpath(path, PACKAGE), line,
                                      attr)
                  for path in package_modules()
                  for line, attr in stack_attributes(path)
                  if attr not in declared]
    assert not undeclared, ('attributes of Heat\'s Stack read but not '
                            'declared in heat_contract.CONTRACT: %s'
                            % undeclared)


def test_the_stack_scan_sees_an_undeclared_attribute(tmp_path):
    source = tmp_path / 'probe.py'
    source.write_text('def f(self):\n    return self.stack.disable_rollback\n')
    assert list(stack_attributes(str(source))) == [(2, 'disable_rollback')]
    assert 'disable_rollback' not in declared_stack_names()
