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
"""Generated templates of our four types, through the in-process engine."""

import pytest

from tests.fuzz import checks_templates
from tests.fuzz import templates


@pytest.fixture(autouse=True)
def fuzz_engine(engine, mistral):
    """The session's engine, its catalog listing Heat and Mistral."""
    from heat_lifecycle_fixtures import inprocess_engine
    from heat_lifecycle_fixtures import tokens
    plain = engine.ctx
    engine.ctx = inprocess_engine.context_with_heat_catalog(plain, [
        tokens.catalog_entry('workflowv2', 'mistral', mistral.url)])
    checks_templates.ENGINE = engine
    try:
        yield engine
    finally:
        engine.ctx = plain
        checks_templates.ENGINE = None


def test_broken_properties_are_refused_by_name(fuzz):
    fuzz.run(templates.broken_properties(), checks_templates.dry_run, 200)


def test_broken_layouts_are_refused(fuzz):
    fuzz.run(templates.broken_layout(), checks_templates.dry_run, 60)


def test_an_action_handled_twice_is_refused(fuzz):
    fuzz.run(templates.duplicated_actions(),
             checks_templates.refused_by_name, 20)


def test_a_broken_update_keeps_the_rest(fuzz):
    fuzz.run(templates.broken_properties(templates.CREATABLE),
             checks_templates.update_keeps_the_rest, 25)


def test_a_5000_member_chain_is_accepted(fuzz_engine):
    """A long chain is validated and accepted (a dry run), not hung."""
    template = templates.template('chain')
    chain = template['resources']['chain']['properties']
    chain['resources'] = ['OS::Heat::Value'] * 5000
    refused = checks_templates.refusal(
        lambda: fuzz_engine.client.preview_stack(
            fuzz_engine.ctx, 'long-chain', template, {}, {}, {}))
    assert refused is None, str(refused)[:2000]


# -- cases the long runs found, each once a defect --------------------------

@pytest.mark.parametrize('prop', ['config', 'server'])
def test_an_id_the_database_cannot_hold_is_refused_by_name(fuzz_engine, prop):
    """Once a traceback in the engine (its lookup by a lone surrogate)."""
    template = templates.template('component')
    template['resources']['deployment']['properties'][prop] = 'caf\udce9'
    checks_templates.refused_by_name(
        ('component', template, 'deployment', prop))


def test_a_chain_update_quoting_text_above_u_ffff_fails_and_deletes():
    """Once a stack UPDATE_IN_PROGRESS for good, then DELETE_IN_PROGRESS.

    The members' validation quoted the value; its U+22098 failed the write
    of the chain's UPDATE_FAILED reason inside check_resource.
    """
    template = templates.template('chain')
    template['resources']['chain']['properties'] = {
        'resources': ['OS::Heat::Value', 'OS::Heat::Value'],
        'concurrent': False,
        'concurrency_limit': 2,
        'resource_properties': {
            'type': 'string',
            'value': [{'\xa9': False}, [True],
                      ['', None, 4.102222777577726e+16, None],
                      {'\xb7\x0c\x83\x02\U00022098' '6': None}]}}
    checks_templates.update_keeps_the_rest(
        ('chain', template, 'chain', 'resource_properties'))
