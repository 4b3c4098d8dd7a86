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
"""Fixtures of the OS::Mistral::ExternalResource tests.

A real Mistral, a thing store its workflows manage, and the in-process
engine pointed at it.
"""

# Before any other heat import, as in the in-process engine: it selects
# the threading backend of oslo.service. (Imported as `common`: `heat` is
# the name of a fixture below.)
from heat.tests import common  # noqa: F401  isort:skip

import contextlib
import os

from oslo_config import cfg
import pytest

from heat_lifecycle_fixtures import hot
from heat_lifecycle_fixtures.mistral import Mistral
from heat_lifecycle_fixtures import tokens
from heat_lifecycle_plugins import config

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
EXAMPLE_TEMPLATE = os.path.join(ROOT, 'examples', 'external_resource.yaml')
EXAMPLE_WORKFLOWS = os.path.join(ROOT, 'examples',
                                 'external_resource_workflows.yaml')

# Workflows for the failure, cancel and no-resource_id cases.
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       'workflows.yaml')) as f:
    TEST_WORKFLOWS = f.read()


def register_workflows(mistral):
    """The example's workflows and the tests' own."""
    client = mistral.client()
    with open(EXAMPLE_WORKFLOWS) as f:
        client.workflows.create(f.read())
    client.workflows.create(TEST_WORKFLOWS)


@pytest.fixture(scope='session')
def mistral(tmp_path_factory):
    with Mistral(str(tmp_path_factory.mktemp('mistral'))) as server:
        register_workflows(server)
        yield server


def use_mistral(engine, mistral):
    """Make the engine's requests find `mistral` in their Keystone catalog.

    As a cloud's requests do (a token whose catalog lists workflowv2); the
    test Mistral runs without auth, so the token is never checked.
    """
    engine.use_catalog([tokens.catalog_entry('workflowv2', 'mistral',
                                             mistral.url)])


@contextlib.contextmanager
def overridden_options():
    """set_options(name=value, ..., group=...), undone on leaving.

    The group is [heat_lifecycle_plugins] unless named. Each option gets
    back the value it had, the engine's own overrides included (it turns
    mistral_notify off): clearing them would turn it on for every later
    test, each ExternalResource action then waiting for a fallback poll.
    """
    earlier = []

    def set_options(group=config.GROUP.name, **values):
        section = cfg.CONF[group] if group else cfg.CONF
        for name, value in values.items():
            earlier.append((name, group, section[name]))
            cfg.CONF.set_override(name, value, group=group)
    try:
        yield set_options
    finally:
        for name, group, value in reversed(earlier):
            cfg.CONF.set_override(name, value, group=group)


@pytest.fixture
def options():
    """overridden_options() for one test."""
    with overridden_options() as set_options:
        yield set_options


@pytest.fixture
def heat(engine, mistral, options):
    """The session's engine, its resources talking to `mistral`."""
    options(mistral_request_retries=1)
    use_mistral(engine, mistral)
    yield engine
    engine.use_catalog(None)


def executions_of(mistral, workflow):
    return [e for e in mistral.client().executions.list(limit=-1)
            if e.workflow_name == workflow]


def create_template(workflow, env_name, env_default=None, update=None,
                    more_input=None):
    """A stack of one thing: CREATE `workflow`, DELETE thing_delete.

    The CREATE execution's env holds `env_name`, a number parameter (with
    `env_default`, if any); `update`: an UPDATE workflow; input: store and
    `more_input`. Output: blob.
    """
    env = {'type': 'number'}
    if env_default is not None:
        env['default'] = env_default
    actions = {'CREATE': {'workflow': workflow, 'params': {
        'env': {env_name: {'get_param': env_name}}}}}
    if update:
        actions['UPDATE'] = update
    actions['DELETE'] = 'thing_delete'
    return hot.one_thing(
        actions, hot.params(store='string', **{env_name: env}),
        {'blob': {'value': {'get_attr': ['thing', 'output', 'blob']}}},
        input=dict(hot.from_params('store'), **(more_input or {})))


# A CREATE workflow that makes a thing, then sleeps `sleep` seconds.
SLOW_CREATE = create_template('create_slowly', 'sleep', env_default=120)
