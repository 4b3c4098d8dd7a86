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
"""Where the told ExternalResource's SUCCESS -> COMPLETE goes.

    python -m benchmarks.told_profile --out FILE.md [--case short|batch]
        [--rounds R] [--py-spy PATH]

Issue 33, item 4, for the "told <= 0.3 s" target: the external parts'
loopback cloud (benchmarks/external_cloud.py) runs one of external-short's
told cases (CASES: `short`, 2 s workflows, one stack at a time; `batch`,
50 stacks of 60 s at once; ours and in-tree in turn) while py-spy
records heat-api-cfn, Keystone and heat-engine, with their workers, from
outside (--nonblocking). Every thread is sampled, waiting too (--idle),
so a count is thread-seconds: of the threads on the signal's path in each
process (ROWS), split by what the innermost known frame was doing
(ACTIVITIES), per told stack. FILE.md also gets the case's own split of
the latency (benchmarks/external.py). py-spy is not a project
dependency: `pip install py-spy`, then --py-spy or PATH.
"""

import argparse
import collections
import contextlib
import os
import shutil
import sys
import tempfile

from benchmarks import engine_profile
from benchmarks import external_cases as cases
from benchmarks import external_cloud
from benchmarks import external_report
from benchmarks import harness
from benchmarks import parts
from benchmarks import profile_summary as summary

RATE = engine_profile.RATE
HOW = ('--idle', '--subprocesses')
# The rows: (row, process, its samples with a frame in these, less those
# with a frame in these).
SIGNAL_RESOURCE = ('heat/engine/service.py', 'resource_signal')
ROWS = (
    ('heat-api-cfn: the signal request', 'heat-api-cfn',
     (('heat/api/', None),), ()),
    ('Keystone: ec2tokens', 'keystone',
     (('keystone/api/ec2tokens.py', None),
      ('keystone/api/_shared/EC2_S3_Resource.py', None)), ()),
    ('Keystone: auth, every client\'s', 'keystone',
     (('keystone/api/auth.py', None),), ()),
    ('heat-engine: resource_signal', 'heat-engine', (SIGNAL_RESOURCE,), ()),
    ('heat-engine: ours\' create, its waits too', 'heat-engine',
     (('heat_lifecycle_plugins/', None),), (SIGNAL_RESOURCE,)),
)
PROCESSES = ('heat-api-cfn', 'keystone', 'heat-engine')
# Where the functions table looks: the innermost frame in one of these.
OPENSTACK = ('heat/', 'heat_lifecycle_plugins/', 'keystone/', 'oslo_',
             'keystoneauth1/', 'keystonemiddleware/')
ACTIVITIES = (
    ('ours', (('heat_lifecycle_plugins/', None),)),
    ('waiting on Keystone (HTTP)', (('keystoneauth1/', None),
                                    ('requests/', None),
                                    ('urllib3/', None))),
    # A call's reply is awaited in ReplyWaiters.get, below call().
    ('waiting on the engine (RPC)', (('amqpdriver.py', 'ReplyWaiters.get'),
                                     ('oslo_messaging/', 'call'))),
    ('database', (('sqlalchemy/', None), ('pymysql/', None),
                  ('oslo_db/', None), ('heat/db/', None),
                  ('heat/objects/', None), ('keystone/common/sql/', None))),
    ('tokens and credentials', (('keystone/token/', None),
                                ('keystone/credential/', None),
                                ('cryptography/', None),
                                ('hmac.py', None))),
    ('policy', (('oslo_policy/', None),)),
    ('messaging', (('oslo_messaging/', None), ('kombu/', None),
                   ('amqp/', None))),
    ('stack and templates', (('heat/engine/', None),)),
    ('logging', (('oslo_log/', None), ('logging/', None))),
)
NAMES = tuple(name for name, _m in ACTIVITIES) + (summary.OTHER,)
# A case: (its title, rounds by default, the plan's keys of its rounds'
# stacks and workflow seconds); the figures are external-short's.
_PLAN = parts.BY_NAME['external-short'].full
CASES = {
    'short': ('2 s workflows, one stack at a time', 6, None,
              'short_seconds'),
    'batch': ('%d stacks at once, %g s workflows' % (
        _PLAN['batch_stacks'], _PLAN['batch_seconds']), 1, 'batch_stacks',
        'batch_seconds'),
}


def shape(case):
    """(stacks a window, workflow seconds) of a case, as the part runs it."""
    _title, _rounds, stacks, seconds = CASES[case]
    return (_PLAN[stacks] if stacks else 1), _PLAN[seconds]


def parse_args(argv):
    p = argparse.ArgumentParser(prog='python -m benchmarks.told_profile')
    p.add_argument('--case', choices=sorted(CASES), default='short')
    p.add_argument('--rounds', type=int,
                   help='rounds of the case (short 6, batch 1)')
    p.add_argument('--py-spy', default=shutil.which('py-spy'))
    p.add_argument('--out', required=True, help='the summary (markdown)')
    args = p.parse_args(argv)
    if args.rounds is None:
        args.rounds = CASES[args.case][1]
    if args.rounds < 1:
        p.error('--rounds: at least 1, not %d' % args.rounds)
    return args


def processes(cloud):
    """{name: pid} of the recorded processes (the first of each name)."""
    found = {}
    for name, pid in cloud.all_processes():
        found.setdefault(name, pid)
    missing = set(PROCESSES) - set(found)
    if missing:
        raise harness.BenchmarkError('no %s among the cloud\'s processes %s'
                                     % (sorted(missing), sorted(found)))
    return {name: found[name] for name in PROCESSES}


def row_stacks(recorded, process, marks, less):
    """The process's stacks with a frame in marks and none in less."""
    return [(frames, n) for frames, n in summary.on_path(
        recorded[process], marks) if not summary.on_path([(frames, n)], less)]


def innermost_openstack(stacks):
    """{'function (path)': samples}: each sample's innermost OpenStack frame.

    OpenStack: a path starting with one of OPENSTACK.
    """
    found = collections.Counter()
    for frames, count in stacks:
        for function, path in reversed(frames):
            short = summary.short_path(path)
            if short.startswith(OPENSTACK):
                found['%s (%s)' % (function, short)] += count
                break
    return found


def split(stacks, told):
    """{activity: thread-seconds per told stack} of the path's stacks."""
    found = dict.fromkeys(NAMES, 0)
    for frames, count in stacks:
        found[summary.doing(frames, ACTIVITIES)] += count
    return {name: n / RATE / told for name, n in found.items()}


def markdown(recorded, case, told, origin, title=CASES['short'][0], top=6):
    lines = ['# Profile: ExternalResource told, %s' % title, '', origin, '',
             'py-spy, %d samples a second of every thread (waiting too), '
             'of heat-api-cfn, Keystone and heat-engine with their workers; '
             'thread-seconds per told stack (%d) of the threads on the '
             'signal\'s path, by what the innermost known frame was doing. '
             'Keystone\'s auth row counts every client\'s tokens (Mistral\'s '
             'and the engine\'s too); the engine\'s last row, ours\' whole '
             'create, while the workflow runs too.' % (RATE, told)] + \
        external_report.told_split(case)[1:] + ['']
    lines += ['| on the path | s | ' + ' | '.join(NAMES) + ' |',
              '|---|---:|' + '---:|' * len(NAMES)]
    rows = [(row, row_stacks(recorded, process, marks, less))
            for row, process, marks, less in ROWS]
    for row, stacks in rows:
        per = split(stacks, told)
        lines.append('| %s | %.3f | %s |' % (
            row, sum(per.values()), ' | '.join('%.3f' % per[n]
                                               for n in NAMES)))
    for row, stacks in rows:
        lines += ['', '## %s: the innermost OpenStack functions' % row, '',
                  '| function | s per told stack |', '|---|---:|']
        for key, n in innermost_openstack(stacks).most_common(top):
            lines.append('| `%s` | %.3f |' % (key, n / RATE / told))
    return '\n'.join(lines) + '\n'


def recorded_case(args, scratch):
    """The case under py-spy; ({process: stacks}, the case)."""
    env = external_cloud.ExternalCloud(os.path.join(scratch, 'cloud'))
    try:
        env.start()
        cases.warm_up(env, harness.say)
        with contextlib.ExitStack() as recording:
            recorded = {name: recording.enter_context(
                engine_profile.Recording(
                    args.py_spy, os.path.join(scratch, name + '.txt'), pid,
                    HOW))
                for name, pid in processes(env.cloud).items()}
            stacks, seconds = shape(args.case)
            case = cases.in_rounds(env, args.case, args.rounds, stacks,
                                   seconds, harness.say)
    finally:
        env.stop()
    return {name: r.stacks for name, r in recorded.items()}, case


def run(argv=None):
    args = parse_args(argv)
    if not args.py_spy:
        print(engine_profile.NO_PY_SPY)
        return 2
    began = engine_profile.origin()
    scratch = tempfile.mkdtemp(prefix='hlp-told-')
    try:
        recorded, case = recorded_case(args, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    told = len(external_report.told_stacks(case))  # told, SIGNAL seen
    engine_profile.write_report(args.out, markdown(
        recorded, case, max(told, 1), began, CASES[args.case][0]))
    return 0


if __name__ == '__main__':
    sys.exit(harness.main(run))
