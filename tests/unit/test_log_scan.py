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

It must find each shape of secret, and not a masked one; count what it
read; find the canary the session's processes plant, apart from the real
findings.
"""

import io
import os
import subprocess
import sys

import pytest

from heat_lifecycle_fixtures import log_scan
from heat_lifecycle_fixtures import process

FOUND = [
    ('{"name": "deploy_password", "value": "Zq9xLmP4aV"}', 'deploy_password'),
    ("'deploy_password': 'Zq9xLmP4aV'", 'deploy_password'),
    ('deploy_password=Zq9xLmP4aV', 'deploy_password'),
    ('{\\"password\\": \\"hunter22\\"}', 'password'),
    ('X-Auth-Token: gAAAAABnZ4kq8s0d9f8g7h6j5k4l3z2x1c0v9b8n7m6',
     'token header'),
    ('GET /v1/signal/x?SignatureVersion=2&Signature=q0wE9rT8yU7iO6pA5sD4f',
     'signed URL'),
    ('GET http://127.0.0.1:8080/v1/AUTH_p/c/o?temp_url_sig='
     '3f1e5c0a9b8d7e6f5a4b3c2d1e0f&temp_url_expires=9', 'temp URL'),
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


def test_a_signed_url_in_mistral_log_only_is_not_a_finding(tmp_path):
    line = ('Webook request url=http://127.0.0.1:8000/v1/signal/arn?'
            'Signature=q0wE9rT8yU7iO6pA5sD4f code=200\n')
    (tmp_path / 'mistral.log').write_text(line)
    (tmp_path / 'heat-engine.log').write_text(line)
    assert log_scan.findings([str(tmp_path)]) == [
        '%s:1: signed URL' % (tmp_path / 'heat-engine.log')]


def test_a_temp_url_in_swifts_own_logs_only_is_not_a_finding(tmp_path):
    line = ('"PUT /disk0/1/AUTH_p/c/o" 201 - "PUT http://127.0.0.1:8080/v1/'
            'AUTH_p/c/o?temp_url_sig=3f1e5c0a9b8d7e6f5a4b&temp_url_'
            'expires=9"\n')
    (tmp_path / 'swift-object-server.log').write_text(line)
    (tmp_path / 'os-collect-config.log').write_text(line)
    assert log_scan.findings([str(tmp_path)]) == [
        '%s:1: temp URL' % (tmp_path / 'os-collect-config.log')]


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


CANARY = 'hlp-canary-0123456789abcdef'


def planted(monkeypatch, path, before='', after=''):
    """A log with the canary as announce_canary() writes it."""
    monkeypatch.setenv(log_scan.CANARY_ENV, CANARY)
    out = io.StringIO()
    log_scan.announce_canary(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(before + out.getvalue() + after)


def test_a_scan_counts_each_file_it_read_once(tmp_path):
    (tmp_path / 'a').mkdir()
    for name in ('a/heat-api.log', 'keystone.log', 'notes.txt'):
        (tmp_path / name).write_text('ok\n')
    scan = log_scan.Scan({'demo-secret'})
    scan.read(str(tmp_path / 'a'))
    scan.read(str(tmp_path))  # again, below a root already read
    assert sorted(scan.read_files) == [str(tmp_path / 'a' / 'heat-api.log'),
                                       str(tmp_path / 'keystone.log')]
    assert scan.problems() == []


def test_a_scan_that_read_nothing_fails(tmp_path):
    scan = log_scan.Scan({'demo-secret'}, CANARY)
    scan.read(str(tmp_path))
    assert scan.problems() == ['no log file was read']


def test_the_canary_is_reported_where_planted_and_only_there(
        tmp_path, monkeypatch):
    agent_log = tmp_path / 'servers' / 's1' / 'os-collect-config.log'
    planted(monkeypatch, agent_log, before='INFO Executing\n')
    (tmp_path / 'heat-api.log').write_text('password=demo-secret\n')
    scan = log_scan.Scan({'demo-secret', CANARY}, CANARY)
    scan.read(str(tmp_path))
    assert scan.canary_at == ['%s:2' % agent_log]
    # The canary is no finding; a real secret still is.
    assert scan.findings == ['%s:1: a known password'
                             % (tmp_path / 'heat-api.log')]
    assert scan.problems(['os-collect-config.log']) == [
        'secret: %s:1: a known password' % (tmp_path / 'heat-api.log')]


def test_a_canary_not_found_fails_the_scan(tmp_path, monkeypatch):
    (tmp_path / 'servers' / 's1').mkdir(parents=True)
    (tmp_path / 'servers' / 's1' / 'os-collect-config.log').write_text(
        'INFO Executing\n')
    (tmp_path / 'heat-api.log').write_text('started\n')
    scan = log_scan.Scan((), CANARY)
    scan.read(str(tmp_path))
    assert scan.problems() == ['the planted canary is in none of the 2 '
                               'logs read']
    planted(monkeypatch, tmp_path / 'keystone.log')
    scan.read(str(tmp_path))
    assert scan.problems() == []
    # Read agents' logs must hold it too, in one of them at least.
    assert scan.problems(['os-collect-config.log']) == [
        'the planted canary is in none of the 1 os-collect-config.log '
        'files read']


def test_nothing_is_announced_without_a_canary(monkeypatch):
    monkeypatch.delenv(log_scan.CANARY_ENV, raising=False)
    out = io.StringIO()
    log_scan.announce_canary(out)
    assert out.getvalue() == ''


@pytest.mark.parametrize('argv', [
    # The agent's log: os-collect-config's command, before the agent.
    ['-m', 'heat_lifecycle_fixtures.refresh_config', '--help'],
    # A service's log: gunicorn's app module, before the app.
    ['-c', 'import heat_lifecycle_fixtures.wsgi_app'],
])
def test_the_sessions_processes_write_the_canary(tmp_path, argv):
    env = process.child_env(dict(
        os.environ, OS_CONFIG_FILES='', HLP_WSGI_APP='none',
        HLP_WSGI_CONFIG='none', HEAT_SHELL_CONFIG=str(tmp_path / 'hc'),
        **{log_scan.CANARY_ENV: CANARY}))
    run = subprocess.run([sys.executable] + argv, env=env, timeout=120,
                         capture_output=True, text=True)
    assert 'log scan canary: %s\n' % CANARY in run.stderr
