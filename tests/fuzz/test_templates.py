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
    with checks_templates.checking_with(engine, mistral) as checked:
        yield checked


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


def test_a_bad_value_at_run_time_never_wedges_a_stack(fuzz):
    fuzz.run(templates.run_time_values(), checks_templates.run_time_value,
             15)


def test_a_value_stored_whole_made_bad_by_an_update_never_wedges(fuzz):
    fuzz.run(templates.stored_whole_updates(),
             checks_templates.stored_whole_update, 12)


def test_a_5000_member_chain_is_accepted(fuzz_engine):
    """A long chain is validated and accepted (a dry run), not hung."""
    template = templates.template('chain')
    chain = template['resources']['chain']['properties']
    chain['resources'] = ['OS::Heat::Value'] * 5000
    refused = checks_templates.refusal(
        lambda: fuzz_engine.client.preview_stack(
            fuzz_engine.ctx, 'long-chain', template, {}, {}, {}))
    assert refused is None, str(refused)[:2000]


# The cases the long runs found run on every series: tests/functional/
# run_time_values.
