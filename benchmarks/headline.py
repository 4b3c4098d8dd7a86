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
"""README's headline rows of the ExternalResource parts: one per case.

Every workflow length the parts ran (2 s, 50 stacks of 60 s, 600 s) and
the lost notification, each with ours' SUCCESS -> COMPLETE (its told
stacks; the fallback's for the lost notification), in-tree's, and both
types' Mistral calls per stack.
"""

from benchmarks import external_report as ext
from benchmarks import harness
from benchmarks import parts
from benchmarks import ratios
from benchmarks import report

HEADER = ['workflow', 'stacks', 'ours (s)', 'in-tree (s)', 'ours ended',
          'ours\' target', 'Mistral calls: ours', 'in-tree',
          'ours/in-tree']
LABELS = {'short': '%(seconds)g s',
          'batch': '%(stacks)d at once, %(seconds)g s',
          'lost': 'notice lost, %(seconds)g s',
          'long': '%(seconds)g s'}


def _calls(case, kind):
    return harness.median([s['calls'] for s in ext.of_kind(case, kind)])


def case_row(name, case, fallback_period):
    """One headline row of a case of an external part's result.

    ours' target: told <= 0.3 s (external_report.told_row), or a lost
    notice within one fallback period (lost_row); the calls' ratio with
    its verdict against calls_target.
    """
    how = 'fallback' if name == ext.LOST else 'told'
    calls = ext.calls_ratio(case)
    target = (ext.lost_row(case, fallback_period) if name == ext.LOST
              else ext.told_row(name, case))[2]
    return (
        LABELS[name] % case,
        len(ext.of_kind(case, ext.OURS)),
        report.fmt(harness.median(
            ext.latencies(case, ext.OURS, how))),
        report.fmt(harness.median(ext.latencies(case, ext.INTREE))),
        ext.how_they_ended(ext.of_kind(case, ext.OURS)),
        target,
        report.fmt(_calls(case, ext.OURS), 0),
        report.fmt(_calls(case, ext.INTREE), 0),
        '%s %s' % (report.fmt(calls and calls['median'], 2, 'x'),
                   ratios.verdict(calls, ext.calls_target(case['seconds']))))


def rows(results):
    """The rows of every case measured, in the report's order."""
    found = []
    for part in parts.EXTERNAL_PARTS:
        data = results.get(part, {}).get('data', {})
        cases = data.get('cases', {})
        found += [case_row(name, cases[name], data.get('fallback_period'))
                  for name in ext.CASES if name in cases]
    return found


def rst(results):
    """The headline's ExternalResource table, or '' if none measured."""
    found = rows(results)
    if not found:
        return ''
    return ('ExternalResource on the loopback cloud, ours told by Mistral '
            '(a lost notification: caught by the fallback poll); SUCCESS '
            '-> COMPLETE medians, ours\' verdict (told: median <= 0.3 s, '
            'on its 95 % interval; lost: within one fallback period), '
            'Mistral calls per stack and their verdict:\n\n' +
            report.rst_table(HEADER, found))
