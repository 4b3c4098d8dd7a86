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
"""The told target's row: its verdict, what it leaves out, what decides."""

from benchmarks import external_report
from benchmarks import targets


def stack(latency, how='told', kind='ours'):
    return {'kind': kind, 'how': how, 'latency': latency,
            'status': 'COMPLETE', 'round': 0}


def short_case(samples):
    return {'seconds': 2.0, 'rounds': len(samples), 'stacks': 1,
            'samples': samples}


def test_a_band_across_the_target_is_undecided_with_stacks_to_decide():
    case = short_case([stack(v) for v in (0.27, 0.41, 0.42, 0.44, 0.45,
                                          0.46)])
    title, seen, verdict = external_report.told_row('short', case)
    assert verdict == 'undecided'
    assert '~7 told stacks to decide' in seen, seen


def test_too_few_stacks_for_an_interval_are_undecided_with_stacks_to_decide():
    case = short_case([stack(v) for v in (0.40, 0.41, 0.42, 0.43)])
    title, seen, verdict = external_report.told_row('short', case)
    assert verdict == 'undecided'
    assert 'too few for a 95 % interval' in seen, seen
    assert '~6 told stacks to decide' in seen, seen


def test_stacks_the_fallback_poll_found_first_are_named_with_latencies():
    case = short_case([stack(v) for v in (0.40, 0.41, 0.42, 0.43, 0.44,
                                          0.45)] +
                      [stack(0.07, 'fallback'), stack(0.31, 'fallback'),
                       stack(None, None)])
    seen, verdict = external_report.told_row('short', case)[1:]
    assert verdict == 'MISSED'
    assert ('2 of 9 found first by the fallback poll (0.07-0.31 s); 1 of '
            '9 neither told nor found by the fallback poll') in seen, seen
    assert 'to decide' not in seen


def read_through_api(database, user):
    """A told stack of ours, as the database and heat-api showed it."""
    return dict(stack(database), success=100.0, complete=100.0 + database,
                api_seen=100.0 + user, api_read=0.02, user_latency=user)


def test_the_told_row_misses_when_a_user_reads_it_late_through_heat_api():
    case = short_case([read_through_api(0.10 + i / 100.0, 0.45 + i / 100.0)
                       for i in range(12)])
    seen, verdict = external_report.told_row('short', case)[1:]
    assert verdict == 'MISSED'  # met in the database
    assert external_report.told_row('short', short_case(
        [stack(0.10 + i / 100.0) for i in range(12)]))[2] == 'met'
    assert 'as a user polling heat-api every 0.05 s reads it: 0.505 s' \
        in seen, seen
    assert "heat-api returned it 0.350 s" in seen, seen
    read_after_database = short_case([
        dict(read_through_api(0.10 + i / 100.0, 0.45 + i / 100.0),
             api_from='database') for i in range(12)])
    seen = external_report.told_row('short', read_after_database)[1]
    assert ("as a user reads it through heat-api (one read as Heat's "
            "database shows it COMPLETE): 0.505 s") in seen, seen


def test_a_read_slower_than_the_target_is_named_as_heat_apis_limit():
    def read(kind, database, one):
        return dict(stack(database, 'told' if kind == 'ours' else 'in-tree',
                          kind), success=100.0, complete=100.0 + database,
                    api_seen=100.0 + database + one, api_read=one,
                    user_latency=database + one, api_from='database')
    slow = short_case([read(kind, 0.2, 0.5 + i / 100.0)
                       for i in range(12) for kind in ('ours', 'in-tree')])
    seen, verdict = external_report.told_row('short', slow)[1:]
    assert verdict == 'MISSED'  # through heat-api; met in the database
    assert ("one read alone is over 0.3 s on this Heat (its engine call's "
            "reply wait, the same for any type: in-tree's stacks were "
            "returned 0.555 s") in seen, seen
    fast = short_case([read(kind, 0.2, 0.02 + i / 1000.0)
                       for i in range(12) for kind in ('ours', 'in-tree')])
    assert 'one read alone' not in external_report.told_row(
        'short', fast)[1]


def test_both_external_parts_have_their_rows_and_one_threads_row():
    def part(name, seconds):
        case = dict(short_case([stack(0.2), stack(0.25)]), seconds=seconds)
        return {'cases': {name: case}, 'engine': 'eventlet',
                'fallback_period': 30}
    rows = targets.rows_of({'external': [
        ('external-short', part('short', 2.0)),
        ('external-600', part('long', 600.0))]})
    titles = [title for title, _seen, _verdict in rows]
    assert sum('told, 2 s workflows' in t for t in titles) == 1, titles
    assert sum('told, 600 s workflows' in t for t in titles) == 1, titles
    assert sum('engine threads' in t for t in titles) == 1, titles
