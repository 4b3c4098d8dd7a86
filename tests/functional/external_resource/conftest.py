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

import os
import time

from oslo_config import cfg
import pytest

from heat_lifecycle_fixtures.mistral import Mistral
from heat_lifecycle_fixtures import tokens
from heat_lifecycle_plugins import config

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
EXAMPLE_TEMPLATE = os.path.join(ROOT, 'examples', 'external_resource.yaml')
EXAMPLE_WORKFLOWS = os.path.join(ROOT, 'examples',
                                 'external_resource_workflows.yaml')

_INPUT = '[store: null, size: 1, color: null]'

# Workflows for the failure, cancel and no-resource_id cases.
TEST_WORKFLOWS = """
version: '2.0'

create_then_fail:
  input: %(input)s
  tasks:
    post:
      action: std.http
      input:
        url: <%% $.store + '/things' %%>
        method: POST
        json: {state: half-made}
      publish:
        resource_id: <%% task().result.content.id %%>
      on-success: [boom]
    boom:
      action: std.fail
      input:
        error_data: the thing could not be finished

create_slowly:
  input: %(input)s
  output:
    resource_id: <%% $.resource_id %%>
  tasks:
    post:
      action: std.http
      input:
        url: <%% $.store + '/things' %%>
        method: POST
        json: {state: being-made}
      publish:
        resource_id: <%% task().result.content.id %%>
      on-success: [wait]
    wait:
      action: std.sleep
      input:
        seconds: <%% env().sleep %%>

echo_create:
  input: %(input)s
  output:
    note: created
    size_seen: <%% $.size %%>
  tasks:
    done:
      action: std.noop

echo_update:
  input: %(input)s
  output:
    note: updated
    size_seen: <%% $.size %%>
    update_env: <%% env() %%>
  tasks:
    done:
      action: std.noop

echo_bad_id:
  input: %(input)s
  output:
    resource_id: [not, a, string]
  tasks:
    done:
      action: std.noop

create_after_wait:
  input: %(input)s
  output:
    resource_id: <%% $.resource_id %%>
  tasks:
    post:
      # Mistral keeps a task's wait-before in its database: the task runs
      # after a restart of Mistral.
      wait-before: <%% env().wait %%>
      action: std.http
      input:
        url: <%% $.store + '/things' %%>
        method: POST
        json: {state: made-after-wait}
      publish:
        resource_id: <%% task().result.content.id %%>

create_big:
  input: %(input)s
  output:
    resource_id: <%% $.resource_id %%>
    blob: <%% range(env().tens).select('0123456789').join('') %%>
  tasks:
    post:
      action: std.http
      input:
        url: <%% $.store + '/things' %%>
        method: POST
        json: {state: big}
      publish:
        resource_id: <%% task().result.content.id %%>

replace_if_shrinks:
  input: %(input)s
  output:
    replace: <%% $.size < env().heat_extresource_previous_input.size %%>
    seen_env: <%% env() %%>
  tasks:
    decide:
      action: std.noop

refuse_to_create:
  input: %(input)s
  tasks:
    refuse:
      action: std.fail
      input:
        error_data: quota of things exceeded

replace_maybe:
  input: %(input)s
  output:
    replace: maybe
  tasks:
    decide:
      action: std.noop

echo_size_only:
  input: [size]
  output:
    size_seen: <%% $.size %%>
  tasks:
    done:
      action: std.noop

needs_owner:
  input: [owner, size: 1]
  tasks:
    done:
      action: std.noop
""" % {'input': _INPUT}


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


@pytest.fixture
def options():
    """set_options(name=value, ..., group=...) for one test.

    The group is [heat_lifecycle_plugins] unless named.
    """
    overridden = []

    def set_options(group=config.GROUP.name, **values):
        for name, value in values.items():
            cfg.CONF.set_override(name, value, group=group)
            overridden.append((name, group))
    yield set_options
    for name, group in overridden:
        cfg.CONF.clear_override(name, group=group)


@pytest.fixture
def heat(engine, mistral, options):
    """The session's engine, its resources talking to `mistral`."""
    options(mistral_request_retries=1)
    use_mistral(engine, mistral)
    yield engine
    engine.use_catalog(None)


def wait_for(predicate, what, timeout=30):
    deadline = time.time() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.time() > deadline:
            raise AssertionError('timed out waiting for %s' % what)
        time.sleep(0.1)


def executions_of(mistral, workflow):
    return [e for e in mistral.client().executions.list(limit=-1)
            if e.workflow_name == workflow]


def create_template(workflow, env_name, env_default=None, update=None):
    """A stack of one thing: CREATE `workflow`, DELETE thing_delete.

    The CREATE execution's env holds `env_name`, a number parameter (with
    `env_default`, if any); `update`: an UPDATE workflow. Output: blob.
    """
    default = '' if env_default is None else ', default: %s' % env_default
    update = '\n        UPDATE: {workflow: %s}' % update if update else ''
    return '''
heat_template_version: 2016-10-14
parameters:
  store: {type: string}
  %(env)s: {type: number%(default)s}
resources:
  thing:
    type: OS::Mistral::ExternalResource
    properties:
      actions:
        CREATE:
          workflow: %(workflow)s
          params: {env: {%(env)s: {get_param: %(env)s}}}%(update)s
        DELETE: {workflow: thing_delete}
      input: {store: {get_param: store}}
outputs:
  blob: {value: {get_attr: [thing, output, blob]}}
''' % {'env': env_name, 'default': default, 'workflow': workflow,
       'update': update}


# A CREATE workflow that makes a thing, then sleeps `sleep` seconds.
SLOW_CREATE = create_template('create_slowly', 'sleep', env_default=120)
