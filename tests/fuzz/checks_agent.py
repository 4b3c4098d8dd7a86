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
"""What must hold for any metadata file the agent is given.

A case describes a metadata file: valid deployments of some `kinds`, the
`mutations` applied to them (a key dropped, a value of another type, nulls
everywhere, unknown keys, an input replaced, a deployment duplicated, a
component's actions broken) and how the `file` is written ('list', 'map'
as the server's whole metadata, 'raw-utf8' without escapes; bytes: that
content instead). The real heat-lifecycle-agent runs one pass over it
with safe test hooks, signalling a local receiver: every deployment whose
signal URL and verb are usable gets exactly one final signal; a file that
cannot be read ends the pass with a one-line message; never a traceback,
never a hang.
"""

import atexit
import collections
import copy
import itertools
import json
import os
import subprocess
import sys
import tempfile

from hypothesis import strategies as st

from heat_lifecycle_plugins.agent import deployments
from heat_lifecycle_plugins.agent import hook_runner
from heat_lifecycle_plugins import protocol
from tests.agent import http_stand_ins
from tests.fuzz import strategies

AGENT = os.path.join(os.path.dirname(sys.executable), 'heat-lifecycle-agent')
# The tree whose code runs: the package installed may be an older copy.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
TIMEOUT = 60  # seconds a pass may take: a case that takes longer hangs
OK_HOOK = '''#!/bin/sh
cat > /dev/null
echo '{"deploy_stdout": "ok", "deploy_stderr": "", "deploy_status_code": 0,
      "result": "fine"}'
'''
FAIL_HOOK = '''#!/bin/sh
cat > /dev/null
echo broken >&2
exit 2
'''
# The packaged hooks are shadowed by OK_HOOK: no generated config runs.
HOOKS = dict({name: OK_HOOK for name in os.listdir(
    hook_runner.PACKAGED_HOOKS_DIR) if not name.startswith('_')},
    ok=OK_HOOK, fail=FAIL_HOOK)
CONFIG = '[heat_lifecycle_agent]\nhooks_dirs =\n'
KINDS = ('hook', 'aware', 'failing', 'component', 'nohook', 'hookless',
         'unsignalled')
GROUPS = {'failing': 'fail', 'component': protocol.COMPONENT_GROUP,
          'nohook': 'chef', 'hookless': 'os-apply-config'}
VERBS = ('POST', 'PUT', 'GET')  # what the receiver answers with 200
INPUT_NAMES = (protocol.DEPLOY_SIGNAL_ID, protocol.DEPLOY_SIGNAL_VERB,
               protocol.DEPLOY_ACTION, protocol.DEPLOY_STATUS_AWARE,
               protocol.DEPLOY_QUEUE_ID, protocol.DEPLOY_PASSWORD,
               protocol.DEPLOY_SIGNAL_TRANSPORT)


def _deployment(kind, index, url):
    values = {protocol.DEPLOY_ACTION: protocol.CREATE,
              protocol.DEPLOY_SERVER_ID: 'server-1',
              protocol.DEPLOY_PASSWORD: 'pa55word-%d' % index,
              protocol.DEPLOY_STATUS_AWARE:
                  protocol.TRUE if kind == 'aware' else protocol.FALSE}
    if kind != 'unsignalled':
        values[protocol.DEPLOY_SIGNAL_ID] = url
        values[protocol.DEPLOY_SIGNAL_VERB] = 'POST'
    config = 'echo %d' % index
    if kind == 'component':
        config = {protocol.CONFIGS: [
            {protocol.ACTIONS: [protocol.CREATE, protocol.UPDATE],
             protocol.TOOL: 'ok', protocol.ENTRY_CONFIG: config},
            {protocol.ACTIONS: [protocol.DELETE], protocol.TOOL: 'fail'}]}
    return {protocol.ID: 'dep-%d' % index,
            protocol.NAME: 'deployment-%d' % index,
            protocol.GROUP: GROUPS.get(kind, 'ok'), protocol.CONFIG: config,
            protocol.INPUTS: [{protocol.IO_NAME: k, protocol.IO_VALUE: v,
                               protocol.IO_TYPE: protocol.STRING_TYPE}
                              for k, v in values.items()],
            protocol.OUTPUTS: [{protocol.IO_NAME: 'result'}],
            protocol.OPTIONS: {}}


def _input_items():
    """What an inputs list may hold instead of a proper input."""
    named = st.fixed_dictionaries(
        {protocol.IO_NAME: st.sampled_from(INPUT_NAMES) |
         strategies.json_values()},
        optional={protocol.IO_VALUE: strategies.json_values(),
                  protocol.IO_TYPE: strategies.json_values()})
    return named | strategies.json_values()


# Values that once broke or may break the agent, tried more often.
ODD_IDS = ('a\x00b', 'a\ud800b', 'a\udce9', '../x', '.x', 'a/b', '', ' ',
           'x' * 300, 'dep-0')
ODD_URLS = ('http://[::1', 'http://127.0.0.1:1/x', 'ftp://x', '', '\x00',
            'not a url', [1], {'url': 'x'}, 1, True, 0)
ODD_VERBS = ('put', 'get', 'DELETE', 'POST\n', 'PO ST', '', None, 1,
             ['POST'])


def _input_mutations(index, value):
    def named(name, odd):
        return st.tuples(st.just('input'), index, st.just(name),
                         st.sampled_from(odd) | value)
    return (named(protocol.DEPLOY_SIGNAL_ID, ODD_URLS) |
            named(protocol.DEPLOY_SIGNAL_VERB, ODD_VERBS) |
            st.tuples(st.just('input'), index, st.sampled_from(INPUT_NAMES) |
                      strategies.texts(12), value | strategies.big_texts()) |
            st.tuples(st.just('input_item'), index, index, _input_items()))


def mutations():
    index = st.integers(0, 5)
    key = st.sampled_from(protocol.DEPLOYMENT_KEYS)
    value = strategies.json_values()
    return st.lists(st.one_of(
        st.tuples(st.just('drop'), index, key),
        st.tuples(st.just('set'), index, st.just(protocol.ID),
                  st.sampled_from(ODD_IDS) | value),
        st.tuples(st.just('set'), index, key | strategies.texts(12), value),
        _input_mutations(index, value),
        st.tuples(st.just('nulls'), index),
        st.tuples(st.just('duplicate'), index),
        st.tuples(st.just('actions'), index, value),
        st.tuples(st.just('tool'), index, value),
        st.tuples(st.just('replace'), index, value)).map(list),
        min_size=1, max_size=4)


def metadata():
    return st.fixed_dictionaries({
        'kinds': st.lists(st.sampled_from(KINDS), min_size=1, max_size=4),
        'mutations': mutations(),
        'file': st.one_of(st.just('list'), st.just('list'),
                          st.sampled_from(('map', 'raw-utf8')),
                          strategies.files())})


def _set_input(item, name, value):
    inputs = item.get(protocol.INPUTS)
    if not isinstance(inputs, list):
        item[protocol.INPUTS] = inputs = []
    for entry in inputs:
        if isinstance(entry, dict) and entry.get(protocol.IO_NAME) == name:
            entry[protocol.IO_VALUE] = value
            return
    inputs.append({protocol.IO_NAME: name, protocol.IO_VALUE: value})


def _configs(item):
    """The configs of a component (the item made one if it is not)."""
    item[protocol.GROUP] = protocol.COMPONENT_GROUP
    config = item.get(protocol.CONFIG)
    if not (isinstance(config, dict) and
            isinstance(config.get(protocol.CONFIGS), list) and
            config[protocol.CONFIGS] and
            isinstance(config[protocol.CONFIGS][0], dict)):
        config = item[protocol.CONFIG] = {protocol.CONFIGS: [
            {protocol.ACTIONS: [protocol.CREATE], protocol.TOOL: 'ok'}]}
    return config[protocol.CONFIGS]


def _mutate(items, mutation):
    how, index, args = mutation[0], mutation[1], mutation[2:]
    if not items:
        return
    index %= len(items)
    item = items[index]
    if how == 'duplicate':
        items.append(copy.deepcopy(item))
    elif how == 'replace':
        items[index] = copy.deepcopy(args[0])
    elif not isinstance(item, dict):
        return
    elif how == 'drop':
        item.pop(args[0], None)
    elif how == 'set':
        item[args[0]] = copy.deepcopy(args[1])
    elif how == 'input':
        _set_input(item, args[0], copy.deepcopy(args[1]))
    elif how == 'input_item' and isinstance(item.get(protocol.INPUTS), list):
        inputs = item[protocol.INPUTS]
        at = args[0] % (len(inputs) + 1)
        inputs[at:at + 1] = [copy.deepcopy(args[1])]
    elif how == 'nulls':
        _set_input(item, protocol.DEPLOY_ACTION, None)
        for key in list(item):
            if key != protocol.INPUTS:
                item[key] = None
    elif how in ('actions', 'tool'):
        _configs(item)[0][protocol.ACTIONS if how == 'actions'
                          else protocol.TOOL] = copy.deepcopy(args[0])


def _items(case, url):
    items = [_deployment(kind, index, url(index))
             for index, kind in enumerate(case['kinds'])]
    for mutation in case['mutations']:
        _mutate(items, mutation)
    return items


def _content(case, items):
    form = case['file']
    if isinstance(form, bytes):
        return form
    if form == 'map':
        items = {protocol.METADATA_DEPLOYMENTS: items,
                 'os-collect-config': {'collectors': ['heat']}}
    if form == 'raw-utf8':
        return json.dumps(items, ensure_ascii=False).encode(
            'utf-8', 'surrogatepass')
    return json.dumps(items).encode('ascii')


def _unreadable(content):
    """Whether the agent cannot take a deployments list from `content`."""
    try:
        text = content.decode('utf-8')
        data = json.loads(text) if text.strip() else []
    except ValueError:
        return True
    if isinstance(data, dict):
        data = data.get(protocol.METADATA_DEPLOYMENTS) or []
    return not isinstance(data, list)


def _values(item):
    inputs = item.get(protocol.INPUTS) if isinstance(item, dict) else None
    return {i[protocol.IO_NAME]: i.get(protocol.IO_VALUE)
            for i in (inputs if isinstance(inputs, list) else ())
            if isinstance(i, dict) and isinstance(i.get(protocol.IO_NAME),
                                                  str)}


def _destination(values, paths):
    """The receiver path of a usable signal URL and verb, or None."""
    url = values.get(protocol.DEPLOY_SIGNAL_ID)
    verb = values.get(protocol.DEPLOY_SIGNAL_VERB)
    if not (isinstance(url, str) and url in paths):
        return None
    if verb and not (isinstance(verb, str) and verb.upper() in VERBS):
        return None
    return paths[url]


def _read(item):
    """(id, problem) as the agent sees the item."""
    found = deployments.Deployment(item)
    return found.id, found.problem


def expected_signals(items, paths):
    """path -> final signals due: one per deployment run with a usable URL.

    A deployment whose id an earlier one was marked signalled with is not
    run; marked: no problem, and signalled or nothing to signal with.
    """
    marked, due = set(), collections.Counter()
    for item in items:
        dep_id, problem = _read(item)
        if dep_id is not None and dep_id in marked:
            continue
        values = _values(item)
        path = _destination(values, paths)
        if path is not None:
            due[path] += 1
        silent = not any(values.get(k) for k in (
            protocol.DEPLOY_SIGNAL_ID, protocol.DEPLOY_QUEUE_ID,
            protocol.DEPLOY_AUTH_URL))
        if dep_id and not problem and (path is not None or silent):
            marked.add(dep_id)
    return due


_RECEIVER = []
_CASES = itertools.count()


def receiver():
    """The signal receiver of this process, started on first use."""
    if not _RECEIVER:
        _RECEIVER.append(http_stand_ins.SignalReceiver())
        atexit.register(stop)
    return _RECEIVER[0]


def stop():
    while _RECEIVER:
        _RECEIVER.pop().stop()


def _run(tmp, content):
    paths = {name: os.path.join(tmp, name) for name in (
        'heat-config', 'deployed', 'hooks', 'agent.conf')}
    with open(paths['heat-config'], 'wb') as f:
        f.write(content)
    with open(paths['agent.conf'], 'w') as f:
        f.write(CONFIG)
    os.mkdir(paths['hooks'])
    for name, text in HOOKS.items():
        hook = os.path.join(paths['hooks'], name)
        with open(hook, 'w') as f:
            f.write(text)
        os.chmod(hook, 0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith('HEAT_')}
    env['PYTHONPATH'] = os.pathsep.join(
        [ROOT] + [p for p in [os.environ.get('PYTHONPATH')] if p])
    try:
        return subprocess.run(
            [AGENT, '--config-file', paths['agent.conf'],
             '--metadata-file', paths['heat-config'],
             '--deployed-dir', paths['deployed'], '--hooks-dir',
             paths['hooks'], '--signal-backoff', '0.01',
             '--signal-retries', '1', '--hook-timeout', '20'],
            env=env, capture_output=True, timeout=TIMEOUT, cwd=tmp)
    except subprocess.TimeoutExpired:
        raise AssertionError('the agent did not finish within %d s'
                             % TIMEOUT)


def _last(url):
    """The last step of a URL's path: the index of its deployment."""
    return url.split('?')[0].rsplit('/', 1)[-1]


def agent_metadata(case):
    """One final signal per usable URL; no traceback, no hang."""
    server, prefix = receiver(), '/case-%d/' % next(_CASES)
    url = {index: server.url(prefix + str(index)) for index in range(9)}
    items = _items(case, url.get)
    content = _content(case, items)
    with tempfile.TemporaryDirectory(prefix='fuzz-agent-') as tmp:
        run = _run(tmp, content)
    stderr = run.stderr.decode('utf-8', 'replace')
    assert 'Traceback' not in stderr, stderr[-3000:]
    finals = collections.Counter(
        _last(r.path) for r in list(server.requests)
        if r.path.startswith(prefix) and isinstance(r.body, dict) and
        protocol.DEPLOY_STATUS_CODE in r.body)
    if _unreadable(content):
        lines = stderr.strip().splitlines()
        assert run.returncode == 1 and len(lines) == 1, stderr[-3000:]
        assert not finals, finals
        return
    paths = {u: _last(u) for u in url.values()}
    due = expected_signals([] if isinstance(case['file'], bytes) else items,
                           paths)
    assert finals == due, (dict(finals), dict(due), stderr[-3000:])
