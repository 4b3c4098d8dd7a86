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

from heat_lifecycle_plugins import config
from heat_lifecycle_plugins.fixtures.mistral import Mistral
from heat_lifecycle_plugins.fixtures import tokens

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
def heat(engine, mistral):
    """The session's engine, its resources talking to `mistral`."""
    cfg.CONF.set_override('mistral_request_retries', 1,
                          group=config.GROUP.name)
    use_mistral(engine, mistral)
    yield engine
    engine.use_catalog(None)
    cfg.CONF.clear_override('mistral_request_retries',
                            group=config.GROUP.name)


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


# A CREATE workflow that makes a thing, then sleeps `sleep` seconds.
SLOW_CREATE = '''
heat_template_version: 2016-10-14
parameters:
  store: {type: string}
  sleep: {type: number, default: 120}
resources:
  thing:
    type: OS::Mistral::ExternalResource
    properties:
      actions:
        CREATE:
          workflow: create_slowly
          params: {env: {sleep: {get_param: sleep}}}
        DELETE: {workflow: thing_delete}
      input: {store: {get_param: store}}
'''
