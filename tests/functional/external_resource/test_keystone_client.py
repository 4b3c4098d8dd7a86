"""The keystone auth path of the Mistral client.

The endpoint comes from the request context's service catalog (a Keystone
v3 token body, as heat-api passes it), and requests go through its
keystoneauth1 session.
"""

from heat.common import context
from oslo_config import cfg

from heat_lifecycle_plugins import config
from heat_lifecycle_plugins.fixtures import tokens
from heat_lifecycle_plugins import mistral_client


def _token_body(mistral_url):
    return tokens.token_body('u1', 'p1', [tokens.catalog_entry(
        'workflowv2', 'mistral', mistral_url)], user_name='demo',
        project_name='demo')


def test_keystone_auth_uses_the_catalog_endpoint(engine, mistral):
    group = config.GROUP.name
    cfg.CONF.set_override('mistral_auth_type', 'keystone', group=group)
    cfg.CONF.set_override('mistral_endpoint', None, group=group)
    try:
        ctx = context.RequestContext(
            auth_token='a-token', auth_token_info=_token_body(mistral.url),
            auth_url='http://127.0.0.1:1/v3',  # never contacted
            project_id='p1', user_id='u1', is_admin=False)
        client = mistral_client.MistralClient(ctx)
        assert client.endpoint == mistral.url
        assert client.workflow_exists('thing_create')
        assert not client.workflow_exists('no_such_workflow')
    finally:
        cfg.CONF.clear_override('mistral_auth_type', group=group)
        cfg.CONF.clear_override('mistral_endpoint', group=group)
