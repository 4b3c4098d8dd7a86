"""The Mistral client's own failures.

Configuration and an endpoint where nothing answers (a real connection to
a closed port, no mocks).
"""

from oslo_config import cfg
import pytest

from heat_lifecycle_plugins import config
from heat_lifecycle_plugins.fixtures import process
from heat_lifecycle_plugins import mistral_client


@pytest.fixture
def options():
    group = config.GROUP.name
    names = []

    def set_options(**values):
        for name, value in values.items():
            cfg.CONF.set_override(name, value, group=group)
            names.append(name)
    yield set_options
    for name in names:
        cfg.CONF.clear_override(name, group=group)


def test_no_auth_needs_an_endpoint(options):
    options(mistral_auth_type='none', mistral_endpoint=None)
    with pytest.raises(mistral_client.MistralError) as error:
        mistral_client.MistralClient(context=None)
    assert 'mistral_auth_type = none needs mistral_endpoint' in str(
        error.value)


def test_unreachable_endpoint_fails_after_bounded_retries(options):
    url = 'http://127.0.0.1:%d/v2' % process.free_port()
    options(mistral_auth_type='none', mistral_endpoint=url,
            mistral_request_retries=2, mistral_request_timeout=5)
    client = mistral_client.MistralClient(context=None)
    with pytest.raises(mistral_client.MistralUnreachable) as error:
        client.execution('0c6a3b44-5b5e-4a52-9a11-1c3cbd3f5d0e')
    message = str(error.value)
    assert message.startswith('Mistral at %s is unreachable' % url)
    assert 'failed 3 time(s)' in message
