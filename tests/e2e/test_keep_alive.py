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
"""The cloud's APIs keep a client's pooled connection open while it idles.

Heat's API tests (heat-tempest-plugin's gabbi tests, over httpx) against
`tools/demo.sh --keep` met "Connection reset by peer": gunicorn's default
keep-alive (2 s) closed connections the client kept in its pool. Here one
connection per API is reused across an idle pause longer than that.
"""

import http.client
import time

import pytest

IDLE = 5  # seconds: over gunicorn's default keep-alive of 2 s


def apis(cloud):
    return {'keystone': cloud.keystone.port,
            'heat-api': cloud.heat.api_port,
            'heat-api-cfn': cloud.heat.cfn_port}


@pytest.mark.parametrize('api', ['keystone', 'heat-api', 'heat-api-cfn'])
def test_one_connection_serves_requests_across_an_idle_pause(cloud, api):
    connection = http.client.HTTPConnection('127.0.0.1', apis(cloud)[api],
                                            timeout=30)
    try:
        connection.request('GET', '/')
        first = connection.getresponse()
        first.read()
        assert first.getheader('Connection', '').lower() != 'close'
        sock = connection.sock
        time.sleep(IDLE)
        # http.client reconnects silently only when it knows the socket is
        # closed; a socket the server closed is reset under this request.
        connection.request('GET', '/')
        second = connection.getresponse()
        second.read()
        assert connection.sock is sock
        assert second.status == first.status
    finally:
        connection.close()
