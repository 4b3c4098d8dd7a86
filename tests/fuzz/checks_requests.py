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
"""What must hold for any action name, request token and action inputs.

action_names.problem() accepts a lifecycle action or a custom one (an
upper-case identifier of at most MAX_LENGTH characters, not a near miss),
or refuses the name with a short message that names it; at once, however
long the name. The pure decisions of action_requests answer for any
token, action and inputs; their messages name the action.
"""

import re
import time

from hypothesis import strategies as st

from heat_lifecycle_plugins import action_names
from heat_lifecycle_plugins import action_requests
from heat_lifecycle_plugins import protocol
from tests.fuzz import strategies

LIFECYCLE = protocol.LIFECYCLE_ACTIONS
# What a refusal may take: the name shown in short, and a hint.
MAX_MESSAGE = 400
MAX_SECONDS = 2.0
SHOWN = 20  # leading characters of protocol.shown(name) a message shows


@st.composite
def near_misses(draw):
    """A lifecycle action with one or two edits, or in another case."""
    name = list(draw(st.sampled_from(LIFECYCLE)))
    for _edit in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(name) - 1))
        how = draw(st.sampled_from(('insert', 'delete', 'replace', 'swap',
                                    'lower')))
        letter = draw(st.sampled_from('AEDTZ_1a\n '))
        if how == 'insert':
            name.insert(at, letter)
        elif how == 'delete' and len(name) > 1:
            del name[at]
        elif how == 'replace':
            name[at] = letter
        elif how == 'swap' and at + 1 < len(name):
            name[at], name[at + 1] = name[at + 1], name[at]
        else:
            name[at] = name[at].lower()
    return ''.join(name)


def custom_names():
    return st.from_regex(r'[A-Z][A-Z0-9_]{0,70}', fullmatch=True)


def action_names_any():
    """Names of every kind: valid, near misses, edges, any JSON."""
    edges = st.sampled_from((
        '', ' ', 'BACKUP\n', 'CREATE\n', 'BACKUP ', '\nBACKUP', 'backup',
        'ß', 'ﬃ', 'İ', 'B' * 64, 'B' * 65, 'CHECK', 'ROTATE_CERTS')) | \
        st.builds(lambda name, tail: name + tail, st.sampled_from(LIFECYCLE),
                  st.sampled_from(('\n', '\x00', '_', 'D', '\u0301')))
    return (st.sampled_from(LIFECYCLE) | near_misses() | custom_names() |
            edges | strategies.strings() | strategies.json_values())


def names():
    return st.fixed_dictionaries({'name': action_names_any()})


def _timed(func, *args):
    start = time.monotonic()
    found = func(*args)
    elapsed = time.monotonic() - start
    assert elapsed < MAX_SECONDS, '%s took %.1f s' % (func.__name__,
                                                      elapsed)
    return found


def _names_it(message, value):
    shown = protocol.shown(value)[:SHOWN]
    assert shown in message, (message[:200], shown)


def action_name(case):
    """Accepted iff a valid name; else refused, briefly, by name."""
    name = case['name']
    problem = _timed(action_names.problem, name)
    valid = name in LIFECYCLE or (
        isinstance(name, str) and
        re.fullmatch(action_names.NAME_PATTERN, name) is not None and
        len(name) <= action_names.MAX_LENGTH and
        action_names.lifecycle_near_miss(name) is None)
    assert (problem is None) == valid, (problem, valid)
    assert action_names.is_custom(name) == (valid and name not in LIFECYCLE)
    if problem is not None:
        assert isinstance(problem, str)
        assert len(problem) <= MAX_MESSAGE, len(problem)
        _names_it(problem, name)


def requests():
    """Arguments of action_requests' decisions, as a map."""
    action = st.none() | st.sampled_from(LIFECYCLE) | custom_names() | \
        near_misses() | strategies.strings()
    return st.fixed_dictionaries({
        'prop_diff': st.none() | strategies.maps(st.sampled_from(
            ('action_request', 'config'))),
        'last_token': st.none() | strategies.json_values(),
        'action': action,
        'handled': st.sets(st.sampled_from(LIFECYCLE) | custom_names(),
                           max_size=4),
        'action_inputs': st.none() | strategies.maps(st.sampled_from(
            protocol.DERIVED_INPUTS + (protocol.DEPLOY_STATUS_AWARE,
                                       'label', 'keep'))),
        'data': strategies.maps(st.sampled_from(
            (action_requests.REQUESTED_KEY, action_requests.TOKEN_KEY)))})


def request_decisions(case):
    """Each decision answers, in its type; messages name the action."""
    diff, action, handled = case['prop_diff'], case['action'], \
        case['handled']
    new = action_requests.is_new_request(diff, 'action_request',
                                         case['last_token'])
    token = (diff or {}).get('action_request')
    assert new is (token not in (None, '') and token != case['last_token'])
    assert isinstance(action_requests.failed_request(
        protocol.UPDATE, case['data']), bool)
    requested = action_requests.requested(action)
    assert requested == (action or protocol.UPDATE)
    deliver = action_requests.to_deliver(requested, handled)
    assert deliver in (requested, protocol.CREATE, None)
    assert (deliver is None) == (
        requested not in handled and not (requested == protocol.UPDATE and
                                          protocol.CREATE in handled))
    for component in (True, False):
        message = _timed(action_requests.undefined, 'dep', 'extended_action',
                         requested, handled, component)
        _names_it(message, requested)
    _names_it(action_requests.no_workflow(
        'thing', 'extended_action', requested, sorted(handled)), requested)
    reserved = action_requests.reserved_inputs(case['action_inputs'])
    assert reserved == sorted(
        k for k in case['action_inputs'] or {}
        if k in protocol.DERIVED_INPUTS + (protocol.DEPLOY_STATUS_AWARE,))


def action_inputs():
    """A derived config's inputs and a request's action_inputs."""
    name = st.sampled_from(('keep', 'label', 'deploy_action')) | \
        strategies.texts(8)
    item = st.fixed_dictionaries({
        'name': name, 'value': strategies.json_values(),
        'type': st.sampled_from(('String', 'Number', 'Json', 'Boolean',
                                 'CommaDelimitedList'))})
    return st.fixed_dictionaries({
        'inputs': st.lists(item, max_size=4, unique_by=lambda i: i['name']),
        'action_inputs': st.none() | st.dictionaries(name,
                                                     strategies.json_values(),
                                                     max_size=4)})


def merged_inputs(case):
    """Values of action_inputs replace or follow the inputs, in order."""
    from heat.engine import software_config_io as swc_io
    inputs = [swc_io.InputConfig(**item) for item in case['inputs']]
    extra = case['action_inputs'] or {}
    merged = action_requests.with_action_inputs(inputs, extra,
                                                swc_io.InputConfig)
    names = [i['name'] for i in case['inputs']]
    assert [i.name() for i in merged] == names + sorted(
        k for k in extra if k not in names)
    for item in merged:
        given = [i for i in case['inputs'] if i['name'] == item.name()]
        expected = (extra[item.name()] if item.name() in extra
                    else given[0]['value'])
        assert item.as_dict()['value'] == expected
        if given:
            assert item.as_dict()['type'] == given[0]['type']
