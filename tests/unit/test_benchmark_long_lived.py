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
"""The long-lived target names Heat's kept threads only when shown."""

from benchmarks import long_lived


def run(kind, actions, failure=None, error=None):
    return {'kind': kind, 'actions': actions, 'first_failure': failure,
            'error': error, 'threads_left': 3}


def verdict(*results):
    [(_title, seen, found)] = long_lived.targets(
        {'heat': '27.0.1', 'actions': 500, 'results': list(results)})
    return seen, found


def test_kept_threads_are_blamed_when_the_remedy_alone_did_all():
    seen, found = verdict(run(long_lived.OFF, 412, 413, 'update: boom'),
                          run(long_lived.ON, 500))
    assert found == 'MISSED'
    assert 'Heat keeps finished threads' in seen


def test_any_other_failure_is_a_plain_miss_with_its_error():
    seen, found = verdict(run(long_lived.OFF, 12, 13, 'check: timed out'),
                          run(long_lived.ON, 40, 41, 'check: timed out'))
    assert found == 'MISSED'
    assert 'check: timed out' in seen
    assert 'threads' not in seen.split('threads left')[-1]
    seen, found = verdict(run(long_lived.OFF, 12, 13, 'check: timed out'))
    assert (found, 'Heat keeps' in seen) == ('MISSED', False)


def test_all_actions_done_is_met():
    assert verdict(run(long_lived.OFF, 500))[1] == 'met'
