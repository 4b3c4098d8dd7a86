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
"""`heat-lifecycle-plugins run-action` without a cloud.

Which parameters a request sets (the template's wiring), its arguments
and errors: one line on stderr, exit status 2, checked before any cloud
is asked. tests/e2e/test_day_two.py runs it against a real cloud.
"""

import pytest

from heat_lifecycle_plugins.user_side import request_plan as rp
from tests.plugin_env import run_cli
from tests.unit.test_why import assert_one_line_error
from tests.unit.test_why import without_cloud  # noqa: F401


def template(**props):
    return {'resources': {'backup': {
        'type': 'OS::Heat::SoftwareDeployment', 'properties': props}}}


WIRED = template(action_request={'get_param': 'req'},
                 extended_action={'get_param': 'act'},
                 action_inputs={'get_param': 'ins'})


def test_a_wired_resource_gets_request_action_and_inputs():
    assert rp.plan(WIRED, 'backup', 'BACKUP', {'label': 'x'}, 't1') == {
        'req': 't1', 'act': 'BACKUP', 'ins': '{"label": "x"}'}


def test_inputs_are_cleared_when_none_are_given():
    assert rp.plan(WIRED, 'backup', 'UPDATE', {}, 't2')['ins'] == '{}'


def test_a_fixed_extended_action_runs_only_that_action():
    fixed = template(action_request={'get_param': 'req'},
                     extended_action='BACKUP')
    assert rp.plan(fixed, 'backup', 'BACKUP', {}, 't') == {'req': 't'}
    with pytest.raises(rp.RunActionError) as error:
        rp.plan(fixed, 'backup', 'DRAIN', {}, 't')
    assert str(error.value) == (
        'resource backup: extended_action is BACKUP in the template, not a '
        'parameter; to run DRAIN give it extended_action: {get_param: ...}')
    unset = template(action_request={'get_param': 'req'})
    assert rp.plan(unset, 'backup', 'UPDATE', {}, 't') == {'req': 't'}


@pytest.mark.parametrize('props', [{}, {'action_request': 'fixed'},
                                   {'action_request': {'get_attr': ['x']}}])
def test_a_resource_not_wired_says_what_to_add(props):
    with pytest.raises(rp.RunActionError) as error:
        rp.plan(template(**props), 'backup', 'BACKUP', {}, 't')
    assert str(error.value).startswith(
        'resource backup is not wired for requests: give it action_request: '
        '{get_param: <a string parameter>}')


def test_an_external_resource_without_the_workflow_is_refused():
    thing = {'resources': {'thing': {
        'type': 'OS::Mistral::ExternalResource', 'properties': {
            'actions': {'CREATE': {}, 'ROTATE': {}},
            'action_request': {'get_param': 'req'},
            'extended_action': {'get_param': 'act'}}}}}
    assert rp.plan(thing, 'thing', 'ROTATE', {}, 't') == {
        'req': 't', 'act': 'ROTATE'}
    with pytest.raises(rp.RunActionError) as error:
        rp.plan(thing, 'thing', 'DRAIN', {}, 't')
    assert str(error.value) == (
        "Resource thing: property extended_action: actions has no workflow "
        "for 'DRAIN' (it has CREATE, ROTATE)")


def test_inputs_need_action_inputs_wired():
    wired = template(action_request={'get_param': 'req'},
                     extended_action={'get_param': 'act'})
    with pytest.raises(rp.RunActionError) as error:
        rp.plan(wired, 'backup', 'BACKUP', {'a': '1'}, 't')
    assert 'resource backup: --input needs action_inputs' in str(error.value)


def test_an_unknown_resource_or_bad_action():
    with pytest.raises(rp.RunActionError) as error:
        rp.plan(WIRED, 'nope', 'BACKUP', {}, 't')
    assert str(error.value) == 'stack has no resource nope in its template'
    with pytest.raises(rp.RunActionError) as error:
        rp.plan(WIRED, 'backup', 'UPDTE', {}, 't')
    assert str(error.value) == (
        "ACTION 'UPDTE' is not an action; did you mean 'UPDATE'?")


def test_inputs_parse_and_refuse_what_heat_sets():
    assert rp.parse_inputs(['a=1', 'b=x=y', 'c=']) == {
        'a': '1', 'b': 'x=y', 'c': ''}
    for bad, said in [('novalue', "--input 'novalue': expected KEY=VALUE"),
                      ('=v', "--input '=v': expected KEY=VALUE"),
                      ('deploy_action=X', "--input 'deploy_action=X': "
                       'deploy_action is set by Heat, not by a request'),
                      (' deploy_action =X', "--input ' deploy_action =X': "
                       'deploy_action is set by Heat, not by a request')]:
        with pytest.raises(rp.RunActionError) as error:
            rp.parse_inputs([bad])
        assert str(error.value) == said


def test_defined_actions_of_a_delivered_component():
    component = {'group': 'component', 'config': {'configs': [
        {'actions': ['CREATE', 'UPDATE']}, {'actions': ['BACKUP']}]}}
    assert rp.defined_actions(component) == {'CREATE', 'UPDATE', 'BACKUP'}
    assert rp.defined_actions({'group': 'script', 'config': 'x'}) is None
    assert rp.defined_actions(None) is None


def test_tokens_differ():
    assert rp.new_token() != rp.new_token()


@pytest.mark.parametrize('args, said', [
    (['backup'], "ACTION 'backup' is not an action: a custom action is an "
                 "upper-case identifier ([A-Z][A-Z0-9_]*); did you mean "
                 "'BACKUP'?"),
    (['BACKUP', '--input', 'x'], "--input 'x': expected KEY=VALUE"),
])
def test_bad_arguments_fail_before_the_cloud_is_asked(
        without_cloud, args, said):  # noqa: F811
    run = run_cli('run-action', 'app', 'deployment', *args,
                  env=without_cloud())
    assert_one_line_error(run, said)


def test_without_credentials(without_cloud):  # noqa: F811
    run = run_cli('run-action', 'app', 'deployment', 'BACKUP',
                  env=without_cloud())
    assert_one_line_error(run, 'cannot authenticate: ')


def test_help_shows_the_arguments(without_cloud):  # noqa: F811
    shown = run_cli('run-action', '--help', env=without_cloud())
    assert shown.returncode == 0, shown.stderr
    for option in ('STACK', 'RESOURCE', 'ACTION', '--input', '--no-wait',
                   '--wait-timeout', '--os-cloud'):
        assert option in shown.stdout


# -- a path into nested stacks and chain members ---------------------------

TOP = {'resources': {'chain': {
    'type': 'OS::Heat::ResourceChain',
    'properties': {'resources': ['a.yaml', 'b.yaml'],
                   'resource_properties': {
                       'backup_request': {'get_param': 'top_request'},
                       'fixed': 'x'}}}}}
CHAIN_STACK = {'resources': {'1': {'type': 'b.yaml', 'properties': {
    'backup_request': 'resolved-value'}}}}
MEMBER = {'resources': {'deploy': {
    'type': 'OS::Heat::SoftwareDeployment',
    'properties': {'action_request': {'get_param': 'backup_request'}}}}}


def test_a_chain_members_request_is_carried_by_resource_properties():
    levels = [(TOP, 'chain'), (CHAIN_STACK, '1'), (MEMBER, 'deploy')]
    params = rp.plan(MEMBER, 'deploy', 'UPDATE', {}, 't')
    assert params == {'backup_request': 't'}
    assert rp.lift(levels, params, 'chain.1.deploy') == {'top_request': 't'}


def test_a_template_resource_passes_its_own_property_down():
    top = {'resources': {'app': {'type': 'app.yaml', 'properties': {
        'backup_request': {'get_param': 'req'}}}}}
    levels = [(top, 'app'), (MEMBER, 'deploy')]
    assert rp.lift(levels, {'backup_request': 't'}, 'app.deploy') == {
        'req': 't'}


def test_a_member_not_wired_to_the_top_says_what_to_add():
    levels = [(TOP, 'chain'), (CHAIN_STACK, '1'), (MEMBER, 'deploy')]
    with pytest.raises(rp.RunActionError) as error:
        rp.lift(levels, {'fixed': 't'}, 'chain.1.deploy')
    assert str(error.value) == (
        'chain.1.deploy: chain does not pass parameter fixed down: give it '
        'fixed: {get_param: <a parameter of its stack>} in '
        'resource_properties')


def test_a_resource_path_is_split_unless_the_name_exists():
    assert rp.resource_path(TOP, 'chain.1.deploy') == ['chain', '1',
                                                       'deploy']
    dotted = {'resources': {'a.b': {}}}
    assert rp.resource_path(dotted, 'a.b') == ['a.b']
    assert rp.resource_path(TOP, 'chain') == ['chain']
    with pytest.raises(rp.RunActionError):
        rp.resource_path(TOP, 'chain..deploy')
