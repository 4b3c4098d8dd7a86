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
"""The log scan the e2e and fault tiers run on every log of their session.

It must find each shape of secret, and not a masked one.
"""

import pytest

from heat_lifecycle_fixtures import log_scan

FOUND = [
    ('{"name": "deploy_password", "value": "Zq9xLmP4aV"}', 'deploy_password'),
    ("'deploy_password': 'Zq9xLmP4aV'", 'deploy_password'),
    ('deploy_password=Zq9xLmP4aV', 'deploy_password'),
    ('{\\"password\\": \\"hunter22\\"}', 'password'),
    ('X-Auth-Token: gAAAAABnZ4kq8s0d9f8g7h6j5k4l3z2x1c0v9b8n7m6',
     'token header'),
    ('GET /v1/signal/x?SignatureVersion=2&Signature=q0wE9rT8yU7iO6pA5sD4f',
     'signed URL'),
    ('connecting as demo with demo-secret', 'a known password'),
]
NOT_FOUND = [
    '{"name": "deploy_password", "value": "***"}',
    "'password': '***'",
    'X-Auth-Token: {SHA256}4b1c7f0e9d8a',
    'deploy_password is an input of every deployment',
    'GET /v1/signal/x?SignatureVersion=2',
]


@pytest.mark.parametrize('line,kind', FOUND)
def test_each_shape_of_secret_is_found(tmp_path, line, kind):
    (tmp_path / 'a').mkdir()
    (tmp_path / 'a' / 'service.log').write_text('ok\n' + line + '\n')
    assert log_scan.findings([str(tmp_path)], {'demo-secret'}) == [
        '%s:2: %s' % (tmp_path / 'a' / 'service.log', kind)]


@pytest.mark.parametrize('line', NOT_FOUND)
def test_masked_values_and_plain_words_are_not(tmp_path, line):
    (tmp_path / 'agent.log').write_text(line + '\n')
    assert log_scan.findings([str(tmp_path)], {'demo-secret'}) == []


def test_only_log_files_are_read(tmp_path):
    (tmp_path / 'notes.txt').write_text('demo-secret\n')
    assert log_scan.findings([str(tmp_path)], {'demo-secret'}) == []


P = '2026-11-25 11:00:00.000 123 ERROR heat.engine.resource '
TRACEBACK = [
    P + 'Traceback (most recent call last):',
    P + '  File "/heat/engine/resource.py", line 1, in _action_recorder',
    P + '    yield',
    P + 'RAISED: deployment sd-1 failed: line one',
    P + ', stderr: line two of the same message',
]


@pytest.mark.parametrize('raised,found', [
    ('heat.common.exception.ResourceFailure', False),
    ('ValueError', True),
])
def test_a_traceback_is_named_by_its_exception_line(tmp_path, raised, found):
    # The message's second line is not the exception.
    text = '\n'.join(TRACEBACK).replace('RAISED', raised)
    (tmp_path / 'heat-engine.log').write_text(text + '\n')
    expected = ['%s:1: %s: deployment sd-1 failed: line one' % (
        tmp_path / 'heat-engine.log', raised)] if found else []
    assert log_scan.tracebacks([str(tmp_path)],
                               ('heat.common.exception.',)) == expected
