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
"""Where ours' told latency goes after the SIGNAL event.

Ours' event of the ended execution (added once the check read it from
Mistral) splits SIGNAL -> COMPLETE into the check's part and Heat's.
"""

from benchmarks import external_cases as cases
from benchmarks import external_report as report
from benchmarks.external_watch import Event


def _event(seen, reason, action='CREATE', status='IN_PROGRESS'):
    return Event(seen, 'ext', action, status, reason)


def test_the_ended_event_is_found_told_or_by_the_fallback_poll():
    started = _event(1.0, 'Mistral execution e1 of workflow wf started; '
                          'Mistral tells its end to heat-api-cfn')
    signal = _event(5.0, 'Mistral: execution e1 ended (WORKFLOW_SUCCEEDED)',
                    action='SIGNAL', status='COMPLETE')
    told = _event(5.2, 'Mistral execution e1 ended: told by Mistral')
    assert cases.found_at([started, signal, told]) == 5.2
    assert cases.how_it_ended([started, signal, told]) == 'told'
    polled = _event(7.0, 'Mistral execution e1 ended: found by the '
                         'fallback poll (no notification came)')
    assert cases.found_at([started, polled]) == 7.0
    # The signal's own event and the start are not the end.
    assert cases.found_at([started, signal]) is None


def _stack(signalled, found, complete):
    return dict(kind=cases.OURS, status='COMPLETE', how='told',
                success=signalled - 0.2, signalled=signalled, found=found,
                complete=complete)


def test_signal_to_complete_is_split_at_the_ended_event():
    case = {'samples': [_stack(10.0, 10.3, 10.4), _stack(20.0, 20.1, 20.5),
                        _stack(30.0, 30.2, 30.3)]}
    text = ' '.join(report.told_split(case))
    assert 'the check until its event of the ended execution 0.200 s' in text
    assert 'then Heat storing the state 0.100 s' in text


def test_older_results_without_the_mark_are_described_as_before():
    stacks = [_stack(10.0, 10.3, 10.4)]
    del stacks[0]['found']
    text = ' '.join(report.told_split({'samples': stacks}))
    assert 'SIGNAL -> COMPLETE 0.400 s' in text
    assert 'the check until' not in text
