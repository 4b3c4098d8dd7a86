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
"""How the Mistral client finds and reaches Mistral.

Through our Heat client plugin `lifecycle_mistral`, as Heat's Clients of a
request context load it (the heat.clients entry point), and the request's
Keystone catalog (a v3 token body, as heat-api passes it): the
`workflowv2` endpoint of the interface `[clients_mistral] endpoint_type`
names; TLS options of `[clients_mistral]`; errors that name the endpoint.
"""

from heat.common import context
import pytest

from heat_lifecycle_fixtures import process
from heat_lifecycle_fixtures import tokens
from heat_lifecycle_plugins.clients import mistral
from heat_lifecycle_plugins.clients import mistral_plugin
from heat_lifecycle_plugins import heat_internals


def _context(*catalog):
    body = tokens.token_body('u1', 'p1', list(catalog), user_name='demo',
                             project_name='demo')
    return context.RequestContext(
        auth_token='a-token', auth_token_info=body,
        auth_url='http://127.0.0.1:1/v3',  # never contacted
        project_id='p1', user_id='u1', is_admin=False)


def lifecycle_mistral(ctx):
    """The client Heat gives a resource whose default_client_name is ours."""
    return ctx.clients.client(mistral_plugin.CLIENT_NAME)


def _entry(url, interface):
    entry = tokens.catalog_entry('workflowv2', 'mistral', url)
    entry['endpoints'][0]['interface'] = interface
    return entry


def test_the_catalog_endpoint_of_the_configured_interface(
        engine, mistral, options):
    unused = 'http://127.0.0.1:%d/v2' % process.free_port()
    ctx = _context(_entry(unused, 'public'), _entry(mistral.url, 'internal'))
    options(group='clients_mistral', endpoint_type='internal')
    client = lifecycle_mistral(ctx)
    assert client.endpoint == mistral.url
    assert client.workflow_exists('thing_create')
    assert not client.workflow_exists('no_such_workflow')
    assert client.workflow_inputs('thing_create') == {
        'store': False, 'size': True, 'color': True}


def test_no_mistral_in_the_catalog_is_a_clear_error(engine):
    ctx = _context(tokens.catalog_entry('orchestration', 'heat',
                                        'http://127.0.0.1:1/v1'))
    with pytest.raises(mistral.MistralError) as error:
        lifecycle_mistral(ctx)
    # Heat's default interface: public (publicURL before Heat 25).
    interface = heat_internals.client_option('mistral', 'endpoint_type')
    assert str(error.value) == (
        'the Keystone catalog has no Mistral (workflowv2) endpoint with '
        'interface %s: Mistral is not available in this cloud' % interface)


def test_tls_options_of_clients_mistral_are_used(engine, options, tmp_path):
    # mistralclient checks the CA file of an https endpoint when the client
    # is made: a missing one shows that [clients_mistral] ca_file is used.
    ctx = _context(tokens.catalog_entry('workflowv2', 'mistral',
                                        'https://127.0.0.1:1/v2'))
    options(group='clients_mistral', ca_file=str(tmp_path / 'no-such-ca.pem'))
    with pytest.raises(mistral.MistralError) as error:
        lifecycle_mistral(ctx)
    assert str(error.value).startswith(
        'cannot use Mistral at https://127.0.0.1:1/v2 with the TLS options '
        'of [clients_mistral]: Unable to locate cacert file')
    assert 'no-such-ca.pem' in str(error.value)


def test_unreachable_endpoint_fails_after_bounded_retries(engine):
    url = 'http://127.0.0.1:%d/v2' % process.free_port()
    client = lifecycle_mistral(_context(
        tokens.catalog_entry('workflowv2', 'mistral', url)))
    client.retries = 2
    with pytest.raises(mistral.MistralUnreachable) as error:
        client.execution('0c6a3b44-5b5e-4a52-9a11-1c3cbd3f5d0e')
    message = str(error.value)
    assert message.startswith('Mistral at %s is unreachable' % url)
    assert 'failed 3 time(s)' in message
