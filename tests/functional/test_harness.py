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
"""The in-process engine runs a plugin type loaded through plugin_dirs."""

import sys

from heat.engine import resources

PROBE = '''
heat_template_version: 2016-04-08
parameters:
  value: {type: string, default: one}
  fail_on: {type: comma_delimited_list, default: ''}
resources:
  probe:
    type: Test::Lifecycle::Probe
    properties:
      value: {get_param: value}
      fail_on: {get_param: fail_on}
outputs:
  value: {value: {get_attr: [probe, value]}}
  calls: {value: {get_attr: [probe, calls]}}
'''


def test_types_come_through_the_plugin_dir_loader(engine):
    plugins = sys.modules['heat.engine.plugins']
    loader = plugins.heat_lifecycle_plugins_loader
    assert loader.__file__.startswith(engine.plugin_dir)
    cls = resources.global_env().get_class('Test::Lifecycle::Probe')
    assert cls.__module__ == 'lifecycle_probe'


def test_full_lifecycle_with_events(engine):
    ident = engine.create(PROBE)
    assert engine.outputs(ident) == {'value': 'one', 'calls': ['CREATE']}
    engine.update(ident, PROBE, params={'value': 'two'})
    assert engine.outputs(ident)['value'] == 'two'
    engine.suspend(ident)
    engine.resume(ident)
    assert engine.outputs(ident)['calls'] == [
        'CREATE', 'UPDATE', 'SUSPEND', 'RESUME']
    assert engine.physical_ids(ident) == {'probe': 'probe-probe'}
    engine.delete(ident)
    events = [(e['resource_action'], e['resource_status'])
              for e in engine.events(ident, resource_name='probe')]
    assert events == [(a, s) for a in
                      ('CREATE', 'UPDATE', 'SUSPEND', 'RESUME', 'DELETE')
                      for s in ('IN_PROGRESS', 'COMPLETE')]


def test_failure_reaches_the_stack_and_its_events(engine):
    ident = engine.create(PROBE, params={'fail_on': 'CREATE'},
                          expect='FAILED')
    stack = engine.show(ident)
    assert 'probe told to fail on CREATE' in stack['stack_status_reason']
    failed = engine.events(ident, resource_name='probe')[-1]
    assert failed['resource_status'] == 'FAILED'
    assert 'probe told to fail on CREATE' in failed['resource_status_reason']


def test_validate_reports_errors(engine):
    assert engine.validate(PROBE) is None
    bad = PROBE.replace('Test::Lifecycle::Probe', 'Test::Lifecycle::Nope')
    assert 'Test::Lifecycle::Nope' in engine.validate(bad)
