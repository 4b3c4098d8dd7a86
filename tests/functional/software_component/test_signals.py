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
"""Signals to the adapted deployment, through Heat's resource_signal RPC.

Each signal leaves a SIGNAL event whose reason says what it did; progress
keeps the deployment IN_PROGRESS; nothing overwrites a final status.
"""

import time

from heat.common import context as heat_context
from heat.common import exception
import pytest

from tests.functional.software_component import helpers

OUTPUTS = [{'name': 'root_url'}, {'name': 'error', 'error_output': True}]


def started(engine, transport='HEAT_SIGNAL'):
    """A stack whose deployment waits for its CREATE signal."""
    template = helpers.component_stack(
        [helpers.script(['CREATE', 'UPDATE'])], transport, OUTPUTS)
    ident = engine.create(template, wait=False)
    item = helpers.wait_for_delivery(engine, ident, 'CREATE')
    sd = helpers.software_deployment(engine, ident)
    return ident, item, sd['id']


def state(engine, ident):
    res = engine.resource(ident, 'deployment', with_attr=False)
    sd = helpers.software_deployment(engine, ident)
    return ((res['resource_action'], res['resource_status']),
            sd['status'], sd['status_reason'])


def test_progress_then_failure_with_a_reason_only(engine):
    ident, _, sd_id = started(engine)
    engine.signal(ident, 'deployment',
                  helpers.progress_signal('installing packages'))
    engine.signal(ident, 'deployment',
                  helpers.progress_signal('configuring'))
    assert state(engine, ident) == (('CREATE', 'IN_PROGRESS'),
                                    'IN_PROGRESS', 'In progress: configuring')
    engine.signal(ident, 'deployment', {'deploy_status': 'FAILED',
                                        'deploy_status_reason': 'disk full'})
    engine.wait(ident, 'CREATE', expect='FAILED')
    assert 'Deployment to server failed: disk full' in engine.show(ident)[
        'stack_status_reason']
    prefix = 'Signal: deployment %s ' % sd_id
    assert helpers.signal_events(engine, ident) == [
        ('IN_PROGRESS', prefix + 'in progress: installing packages'),
        ('IN_PROGRESS', prefix + 'in progress: configuring'),
        ('IN_PROGRESS', prefix + 'failed: disk full'),
    ]
    engine.delete(ident)


def test_late_duplicate_and_progress_after_completion_change_nothing(engine):
    ident, _, sd_id = started(engine)
    engine.signal(ident, 'deployment', helpers.final_signal(
        root_url='http://a/', deploy_status='COMPLETE'))
    engine.wait(ident, 'CREATE')
    engine.signal(ident, 'deployment',
                  helpers.final_signal(root_url='http://late/'))
    engine.signal(ident, 'deployment',
                  helpers.progress_signal('installing packages'))
    engine.signal(ident, 'deployment', {'deploy_status': 'FAILED'})

    assert state(engine, ident) == (('CREATE', 'COMPLETE'), 'COMPLETE',
                                    'Outputs received')
    sd = helpers.software_deployment(engine, ident)
    assert sd['output_values']['root_url'] == 'http://a/'
    ignored = ('Signal: deployment %s: signal ignored, the deployment is not '
               'in progress (CREATE COMPLETE): late, duplicate or for a '
               'previous action' % sd_id)
    assert helpers.signal_events(engine, ident) == [
        ('IN_PROGRESS', 'Signal: deployment %s succeeded' % sd_id),
        ('COMPLETE', ignored), ('COMPLETE', ignored), ('COMPLETE', ignored)]
    engine.delete(ident)


def with_roles(ctx, *roles):
    """A copy of request context `ctx` whose user has only `roles`."""
    return heat_context.RequestContext.from_dict(dict(ctx.to_dict(),
                                                      roles=list(roles)))


def test_a_readers_signal_is_refused_and_stores_nothing(engine):
    ident, _, sd_id = started(engine)
    reader = with_roles(engine.ctx, 'reader')
    for body in ({'deploy_status': 'FAILED', 'deploy_status_reason': 'no'},
                 helpers.progress_signal('pretending')):
        with pytest.raises(exception.Forbidden) as refused:
            engine.client.resource_signal(reader, ident, 'deployment', body,
                                          sync_call=True)
        assert str(refused.value).startswith(
            'You are not authorized to use signals to deployment (the '
            'caller has neither a member role on the project (its roles: '
            'reader) nor the deployment\'s own credentials')
    assert state(engine, ident) == (('CREATE', 'IN_PROGRESS'),
                                    'IN_PROGRESS', 'Deploy data available')
    assert helpers.signal_events(engine, ident) == []
    engine.signal(ident, 'deployment', helpers.final_signal())
    engine.wait(ident, 'CREATE')
    assert helpers.signal_events(engine, ident) == [
        ('IN_PROGRESS', 'Signal: deployment %s succeeded' % sd_id)]
    engine.delete(ident)


def test_malformed_signals_change_nothing(engine):
    ident, _, sd_id = started(engine)
    engine.signal(ident, 'deployment', ['not', 'a', 'map'])
    engine.signal(ident, 'deployment', 'just text')
    assert state(engine, ident) == (('CREATE', 'IN_PROGRESS'),
                                    'IN_PROGRESS', 'Deploy data available')
    prefix = 'Signal: deployment %s: signal ignored, ' % sd_id
    assert helpers.signal_events(engine, ident) == [
        ('IN_PROGRESS', prefix + 'its body must be a map of outputs and '
         "deploy_* values, not list ['not', 'a', 'map']"),
        ('IN_PROGRESS', prefix + 'its body must be a map of outputs and '
         "deploy_* values, not str 'just text'"),
    ]
    engine.signal(ident, 'deployment', helpers.final_signal())
    engine.wait(ident, 'CREATE')
    engine.delete(ident)


def test_unknown_status_fails_the_deployment_naming_the_value(engine):
    ident, _, sd_id = started(engine)
    engine.signal(ident, 'deployment', helpers.final_signal(
        root_url='http://a/', deploy_status='DONE'))
    engine.wait(ident, 'CREATE', expect='FAILED')
    cause = ("unknown deploy_status 'DONE' (expected one of IN_PROGRESS, "
             "COMPLETE, FAILED)")
    assert engine.show(ident)['stack_status_reason'] == (
        'Resource CREATE failed: Error: resources.deployment: Deployment '
        'to server failed: ' + cause)
    assert helpers.signal_events(engine, ident) == [
        ('IN_PROGRESS', 'Signal: deployment %s failed: %s' % (sd_id, cause))]
    # Nothing lost: what the signal carried is on the attributes.
    assert helpers.software_deployment(engine, ident)['output_values'][
        'root_url'] == 'http://a/'
    engine.delete(ident)


def test_old_agent_signals_keep_their_meaning(engine):
    ident, _, sd_id = started(engine)
    engine.signal(ident, 'deployment', helpers.final_signal(
        deploy_status_code=3, deploy_stderr='boom'))
    engine.wait(ident, 'CREATE', expect='FAILED')
    assert ('Deployment exited with non-zero status code: 3' in
            engine.show(ident)['stack_status_reason'])
    engine.delete(ident)

    ident, _, sd_id = started(engine)
    engine.signal(ident, 'deployment', helpers.final_signal(error='broken'))
    engine.wait(ident, 'CREATE', expect='FAILED')
    assert 'error : broken' in engine.show(ident)['stack_status_reason']
    engine.delete(ident)


def test_failure_reason_quotes_the_end_of_stderr_and_keeps_it(engine):
    ident, _, sd_id = started(engine)
    stderr = 'fetching packages\n' + 'x' * 300 + '\nE: disk full\n'
    engine.signal(ident, 'deployment', helpers.final_signal(
        deploy_status_code=3, deploy_stderr=stderr))
    engine.wait(ident, 'CREATE', expect='FAILED')
    cause = ('Deployment exited with non-zero status code: 3, stderr: ...' +
             'x' * 105 + ' | E: disk full')
    assert engine.show(ident)['stack_status_reason'] == (
        'Resource CREATE failed: Error: resources.deployment: Deployment '
        'to server failed: ' + cause)
    res = engine.resource(ident, 'deployment', with_attr=['deploy_stderr'])
    assert res['attributes']['deploy_stderr'] == stderr
    assert helpers.signal_events(engine, ident)[-1] == (
        'IN_PROGRESS', 'Signal: deployment %s failed: %s' % (sd_id, cause))
    engine.delete(ident)

    # A failure reported without any stderr: the attribute is '', not None.
    ident, _, sd_id = started(engine)
    engine.signal(ident, 'deployment', {'deploy_status': 'FAILED',
                                        'deploy_status_reason': 'timed out'})
    engine.wait(ident, 'CREATE', expect='FAILED')
    assert engine.show(ident)['stack_status_reason'].endswith(
        'Deployment to server failed: timed out')
    res = engine.resource(ident, 'deployment', with_attr=['deploy_stderr'])
    assert res['attributes']['deploy_stderr'] == ''
    engine.delete(ident)


def test_concurrent_signals_never_undo_completion(engine):
    """Signals cast without waiting run in parallel engine threads."""
    ident, _, sd_id = started(engine)
    bodies = [helpers.progress_signal('step %d' % n) for n in range(8)]
    bodies.insert(3, helpers.final_signal(root_url='http://done/'))
    for body in bodies:
        engine.signal(ident, 'deployment', body, sync=False)
    engine.wait(ident, 'CREATE')
    events = helpers.wait_for_signal_events(engine, ident, len(bodies))
    assert len(events) == len(bodies)
    assert state(engine, ident)[1:] == ('COMPLETE', 'Outputs received')
    assert helpers.software_deployment(engine, ident)['output_values'][
        'root_url'] == 'http://done/'
    reasons = [reason for _, reason in events]
    assert reasons.count('Signal: deployment %s succeeded' % sd_id) == 1
    engine.delete(ident)


def test_progress_read_before_completion_is_not_written_after_it(engine):
    """The compare-and-swap, with the race made deterministic.

    A progress signal read while IN_PROGRESS is stored only after COMPLETE was.
    """
    from heat_lifecycle_plugins.resources import deployment_signals as ds
    ident, _, sd_id = started(engine)
    stale = ds.snapshot(engine.ctx, sd_id)
    progress = ds.signal_outcome(stale,
                                 helpers.progress_signal('late progress'))
    assert progress.values == {'status_reason': 'In progress: late progress'}

    engine.signal(ident, 'deployment', helpers.final_signal())
    engine.wait(ident, 'CREATE')
    assert ds.store_if_in_progress(engine.ctx, stale, progress.values) is False
    assert state(engine, ident) == (('CREATE', 'COMPLETE'), 'COMPLETE',
                                    'Outputs received')
    engine.delete(ident)


def test_status_awareness_per_transport(engine):
    for transport, aware in (('HEAT_SIGNAL', 'true'), ('CFN_SIGNAL', 'true'),
                             ('NO_SIGNAL', 'false')):
        template = helpers.component_stack(
            [helpers.script(['CREATE'])], transport)
        ident = engine.create(template, wait=False)
        if transport == 'NO_SIGNAL':
            engine.wait(ident, 'CREATE')
            sd = helpers.software_deployment(engine, ident)
            metadata = engine.resource(ident, 'server',
                                       with_attr=False)['metadata']
            item = [i for i in metadata['deployments']
                    if i['id'] == sd['config_id']][0]
        else:
            item = helpers.wait_for_delivery(engine, ident, 'CREATE')
        inputs = helpers.inputs_of(item)
        assert (transport, inputs['deploy_status_aware']) == (
            transport, aware)
        assert helpers.input_types(item)['deploy_status_aware'] == 'String'
        engine.delete(ident, wait=False)


def test_polled_transports_are_not_status_aware(engine):
    """Only HEAT_SIGNAL and CFN_SIGNAL deployments are status aware.

    TEMP_URL_SIGNAL and ZAQAR_SIGNAL signals are polled by the engine
    service and never reach the resource, so no progress may be sent.
    """
    from heat.engine import stack as heat_stack
    from heat.engine import template as heat_template
    for transport in ('TEMP_URL_SIGNAL', 'ZAQAR_SIGNAL', 'NO_SIGNAL',
                      'HEAT_SIGNAL', 'CFN_SIGNAL'):
        tmpl = heat_template.Template(helpers.component_stack(
            [helpers.script(['CREATE'])], transport))
        stack = heat_stack.Stack(engine.ctx, 'aware-%d' % time.time(), tmpl)
        deployment = stack['deployment']
        assert type(deployment).__module__ == (
            'heat_lifecycle_plugins.resources.software_deployment')
        assert deployment._status_aware() is (
            transport in ('HEAT_SIGNAL', 'CFN_SIGNAL')), transport
