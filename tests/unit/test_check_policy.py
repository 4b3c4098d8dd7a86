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
"""`check` judges the policy heat-api loads: readers and the stack user.

oslo.policy reads heat.conf's policy files as heat-api does: the file
install-policy writes into policy.d beside heat.conf, a policy.yaml with
the rules merged (kolla-ansible, openstack-ansible), or none.
"""

from oslo_config import cfg

from heat_lifecycle_plugins import heat_policy
from heat_lifecycle_plugins.host_checks import check_policy
from heat_lifecycle_plugins.host_checks import checks


def loaded(tmp_path, text=''):
    path = tmp_path / 'heat.conf'
    path.write_text('[DEFAULT]\n' + text)
    conf = cfg.ConfigOpts()
    conf(['--config-file', str(path)], project='heat')
    return conf


def levels(found):
    return [(f.level, f.text) for f in found]


def test_heats_default_policy_lets_a_reader_read_credentials(tmp_path):
    [found, cfn] = check_policy.findings(loaded(tmp_path))
    assert found.level == checks.WARN
    for rule in ('resource:metadata', 'resource:show',
                 'software_deployments:metadata', 'software_configs:show',
                 'stacks:show_snapshot'):
        assert rule in found.text, found.text
    assert 'install-policy --policy-dir /etc/heat/policy.d' in found.text
    # heat-api-cfn checks without a project: Heat's default denies all.
    assert 'cloudformation' not in found.text
    assert cfn.level == checks.WARN
    assert cfn.text.startswith(
        'servers polling heat-api-cfn (POLL_SERVER_CFN) may not read '
        'their metadata'), cfn.text


def test_the_installed_policy_file_keeps_readers_out(tmp_path):
    heat_policy.install_policy(str(tmp_path / 'policy.d'))
    [found] = check_policy.findings(loaded(tmp_path))
    assert found.level == checks.OK, found.text
    assert 'readers cannot read deployments\' credentials' in found.text


def test_the_rules_merged_into_policy_yaml_hold_too(tmp_path):
    (tmp_path / 'policy.yaml').write_text(
        '"stacks:index": "role:reader"\n' + heat_policy.policy_text())
    [found] = check_policy.findings(loaded(tmp_path))
    assert found.level == checks.OK, found.text


def test_a_policy_that_blinds_the_servers_fails(tmp_path):
    (tmp_path / 'policy.yaml').write_text(
        heat_policy.policy_text() +
        '"resource:metadata": "role:member"\n')
    found = check_policy.findings(loaded(tmp_path))
    assert levels(found) == [(checks.FAIL, (
        'servers\' stack users (role heat_stack_user) may not read their '
        'metadata (resource:metadata): their agents get no deployments'))]


def test_one_rule_left_to_readers_is_named(tmp_path):
    (tmp_path / 'policy.yaml').write_text(
        heat_policy.policy_text() +
        '"software_configs:show": "role:reader"\n')
    [found] = check_policy.findings(loaded(tmp_path))
    assert found.level == checks.WARN
    assert '(software_configs:show)' in found.text, found.text


def test_install_policy_keeps_an_operators_different_file(tmp_path):
    path, what = heat_policy.install_policy(str(tmp_path))
    assert what == 'written'
    assert heat_policy.install_policy(str(tmp_path)) == (path, 'unchanged')
    with open(path, 'a') as f:
        f.write('"stacks:index": "role:member"\n')
    try:
        heat_policy.install_policy(str(tmp_path))
    except FileExistsError as exc:
        assert 'use --force' in str(exc)
    else:
        raise AssertionError('an operator\'s file was overwritten')
    assert heat_policy.install_policy(str(tmp_path), force=True)[1] == \
        'written'
