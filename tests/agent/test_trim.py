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
"""Fitting signal bodies into Heat's 1048576-byte request limit."""

from heat_lifecycle_plugins.agent import signal_bodies
from heat_lifecycle_plugins.agent import trim

LIMIT = 1048576


def test_small_body_is_unchanged():
    body = {'deploy_stdout': 'a', 'deploy_stderr': '', 'out': 'x'}
    assert trim.fit(body, LIMIT) == (body, 0)


def test_escaped_text_is_trimmed_to_just_fit():
    # Non-ASCII and control characters grow when JSON-escaped.
    body = {'deploy_stdout': 'é\t' * 400000 + 'tail-out',
            'deploy_stderr': 'x' * 900000 + 'tail-err',
            'deploy_status_code': 0, 'out': 'kept'}
    fitted, trimmed = trim.fit(body, LIMIT)
    size = len(trim.encode(fitted))
    assert LIMIT - 4096 < size <= LIMIT
    assert trimmed > 0
    assert fitted['out'] == 'kept'
    assert fitted['deploy_stdout'].endswith('tail-out')
    assert fitted['deploy_stderr'].endswith('tail-err')
    for key in ('deploy_stdout', 'deploy_stderr'):
        assert fitted[key].startswith('[heat-lifecycle-agent: ')


def test_outputs_too_big_become_a_failure_signal():
    body = {'deploy_stdout': 'a', 'deploy_stderr': '', 'deploy_status_code':
            0, 'huge': 'h' * (LIMIT + 10), 'deploy_status': 'COMPLETE',
            'deploy_status_reason': 'ok'}
    assert trim.fit(body, LIMIT)[0] is None
    fitted = signal_bodies.fit(body, LIMIT, True, 'dep')
    assert 'huge' not in fitted
    assert fitted['deploy_status'] == 'FAILED'
    assert fitted['deploy_status_code'] == 1
    assert 'exceed the 1048576-byte signal limit' in \
        fitted['deploy_status_reason']
