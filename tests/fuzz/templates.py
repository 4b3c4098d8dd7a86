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
"""Templates of each of our four types, valid and then broken on purpose.

A case is (name, template, resource, prop): the template's resource
`resource` was broken at its property `prop` (None: the resource itself
or the template's layout was broken), so an error must name both.
"""

import copy

from hypothesis import strategies as st

from heat_lifecycle_fixtures import mistral_server
from tests.fuzz import strategies

SERVER = {'type': 'OS::Heat::DeployedServer',
          'properties': {'software_config_transport': 'POLL_SERVER_HEAT'}}

VALID = {
    'component': {
        'server': SERVER,
        'component': {'type': 'OS::Heat::SoftwareComponent', 'properties': {
            'configs': [
                {'tool': 'script', 'actions': ['CREATE', 'UPDATE'],
                 'config': 'echo create'},
                {'tool': 'script', 'actions': ['DELETE', 'BACKUP'],
                 'config': 'echo delete'}],
            'inputs': [{'name': 'label', 'default': 'x'}],
            'outputs': [{'name': 'result'}],
            'options': {}}},
        'deployment': {'type': 'OS::Heat::SoftwareDeployment', 'properties': {
            'config': {'get_resource': 'component'},
            'server': {'get_resource': 'server'},
            'input_values': {'label': 'y'},
            'name': 'deploy-1',
            'actions': ['CREATE', 'UPDATE', 'DELETE'],
            'signal_transport': 'HEAT_SIGNAL',
            'start_timeout': 300, 'run_timeout': 600,
            'extended_action': 'BACKUP', 'action_request': '',
            'action_inputs': {}}},
    },
    'chain': {
        'chain': {'type': 'OS::Heat::ResourceChain', 'properties': {
            'resources': ['OS::Heat::Value', 'OS::Heat::Value'],
            'concurrent': False, 'concurrency_limit': 2,
            'resource_properties': {'value': 'v', 'type': 'string'}}},
    },
    'external': {
        'thing': {'type': 'OS::Mistral::ExternalResource', 'properties': {
            'actions': {'CREATE': {'workflow': 'echo_size_only'},
                        'DELETE': {'workflow': 'echo_size_only',
                                   'params': {'env': {}}},
                        'ROTATE': {'workflow': 'echo_size_only'}},
            'input': {'size': 1},
            'description': 'a thing',
            'replace_on_change_inputs': ['size'],
            'always_update': False,
            'extended_action': 'ROTATE', 'action_request': '',
            'action_inputs': {}}},
    },
}
# Scalars with the awkward ones (control characters, lone surrogates,
# big numbers) and containers up to 50 levels deep or 1 MB long.
SCALARS = (st.none() | st.booleans() | st.integers() |
           st.floats(allow_nan=True, allow_infinity=True) |
           st.text(st.characters(codec=None, exclude_categories=()),
                   max_size=40))


def _nested(depth, leaf):
    for _level in range(depth):
        leaf = [leaf] if _level % 2 else {'k': leaf}
    return leaf


def json_value():
    return st.one_of(
        st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) |
                     st.dictionaries(st.text(max_size=8), inner, max_size=4),
                     max_leaves=12),
        st.builds(_nested, st.integers(40, 50), SCALARS),
        st.sampled_from(('x' * 2 ** 20, '\x00\x1b[31m\r\n',
                         'caf\udce9', 'a' * 70000)))


# A component alone: created without a server, so it can be updated.
VALID['config'] = {'component': VALID['component']['component']}
# The resources whose properties a case may break, per template.
TARGETS = {'component': ('component', 'deployment'), 'chain': ('chain',),
           'external': ('thing',), 'config': ('component',)}
# Templates whose stacks are created without a server or Mistral.
CREATABLE = ('chain', 'config')


def dependents(template, resource):
    """The resources whose properties refer to `resource`."""
    return [name for name, body in template['resources'].items()
            if {'get_resource': resource} in _values(body.get('properties'))]


def _values(value):
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from _values(item)
    elif isinstance(value, list):
        for item in value:
            yield from _values(item)


def template(name, resources=None):
    return {'heat_template_version': '2016-10-14',
            'resources': copy.deepcopy(resources or VALID[name])}


INTRINSICS = ('get_resource', 'get_param', 'get_attr')


def _paths(value, prefix=()):
    """Every path into a JSON value (dict keys, list indexes).

    Not into an intrinsic function's arguments: a broken one is Heat's to
    refuse (Heat 27 answers {get_resource: []} with HTTP 500, whatever the
    resource type), and the fuzz is about our types.
    """
    yield prefix
    if isinstance(value, dict) and set(value) & set(INTRINSICS):
        return
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, prefix + (index,))


def _at(value, path):
    for step in path:
        value = value[step]
    return value


@st.composite
def broken_properties(draw, names=tuple(sorted(VALID))):
    """A valid template with one property changed at any depth."""
    name = draw(st.sampled_from(names))
    found = template(name)
    resource = draw(st.sampled_from(TARGETS[name]))
    props = found['resources'][resource]['properties']
    path = draw(st.sampled_from([p for p in _paths(props) if p]))
    parent = _at(props, path[:-1])
    how = draw(st.sampled_from(('replace', 'drop', 'add key', 'null')))
    if how == 'drop':
        del parent[path[-1]]
    elif how == 'add key' and isinstance(parent, dict):
        key = draw(st.text(max_size=12).filter(lambda k: k not in parent))
        parent[key] = draw(json_value())
        path = (key,) if len(path) == 1 else path
    elif how == 'null':
        parent[path[-1]] = None
    else:
        parent[path[-1]] = draw(json_value())
    return (name, found, resource, path[0])


@st.composite
def broken_layout(draw):
    """A resource or template section of the wrong shape."""
    name = draw(st.sampled_from(sorted(VALID)))
    found = template(name)
    resource = draw(st.sampled_from(TARGETS[name]))
    section = draw(st.sampled_from(('properties', 'type', 'depends_on',
                                    'metadata', 'unknown_key')))
    found['resources'][resource][section] = draw(json_value())
    return (name, found, resource, None)


@st.composite
def duplicated_actions(draw):
    """A component whose configs handle one action twice."""
    found = template('component')
    configs = found['resources']['component']['properties']['configs']
    action = draw(st.sampled_from(('CREATE', 'UPDATE', 'DELETE', 'BACKUP')))
    configs.append({'tool': draw(st.sampled_from(('script', 'ansible', ''))),
                    'actions': [action], 'config': 'echo again'})
    return ('component', found, 'component', 'configs')


# -- values that arrive only when the stack runs ------------------------------

# Values Heat's MySQL columns cannot hold or that are too long to quote.
UNSTORABLE = ('\U0001f600', 'caf\udce9', 'x' * 70000,
              ['\U00022098'], {'k': 'caf\udce9'})
# Templates whose stacks the get_attr cases create: the deployment sends
# no signal (it completes at once, so a value it accepts does not hang),
# and has no deadline (which needs a signal).
_NO_SIGNAL = {key: value for key, value in
              VALID['component']['deployment']['properties'].items()
              if key not in ('start_timeout', 'run_timeout')}
_NO_SIGNAL['signal_transport'] = 'NO_SIGNAL'
RUN_TIME = dict(VALID, component=dict(VALID['component'], deployment=dict(
    VALID['component']['deployment'], properties=_NO_SIGNAL)))
BAD = 'bad_value'


def _parameter_type(value):
    return 'string' if isinstance(value, str) else 'json'


@st.composite
def run_time_values(draw):
    """A property of one of our types given its value by `get_attr`.

    The value of an OS::Heat::Value (BAD) at any depth of the properties,
    or of an environment parameter when it is a string, list or map: Heat
    checks such values only when the action runs, so our messages about
    them become stored reasons. A case: (name, template, environment,
    resource, prop).
    """
    name = draw(st.sampled_from(sorted(TARGETS)))
    found = template(name, RUN_TIME[name])
    resource = draw(st.sampled_from(TARGETS[name]))
    props = found['resources'][resource]['properties']
    path = draw(st.sampled_from([p for p in _paths(props) if p]))
    value = draw(st.sampled_from(UNSTORABLE) | json_value())
    environment = {}
    if draw(st.booleans()) and isinstance(value, (str, list, dict)):
        found['parameters'] = {BAD: {'type': _parameter_type(value)}}
        environment = {'parameters': {BAD: value}}
        _at(props, path[:-1])[path[-1]] = {'get_param': BAD}
    else:
        found['resources'][BAD] = {'type': 'OS::Heat::Value',
                                   'properties': {'value': value}}
        _at(props, path[:-1])[path[-1]] = {'get_attr': [BAD, 'value']}
    return (name, found, environment, resource, path[0])


# -- values Heat stores whole, made bad by an update -------------------------

def _chosen_ids():
    """A description choosing the execution's id: any id.

    The fixture's Mistral starts an execution whose description starts
    with mistral_server.CHOSEN_ID with the id that follows.
    """
    ids = (st.uuids().map(str) | strategies.texts(40) |
           strategies.big_texts() |
           st.sampled_from(('x' * 255, 'x' * 256, '\U0001f600', 'caf\udce9',
                            '\ud800x')))
    return ids.map(lambda found: mistral_server.CHOSEN_ID + found)


def _bad_texts():
    return st.sampled_from(UNSTORABLE) | strategies.strings()


# Values holding a lone surrogate, which no Mistral can take: at any
# depth, in a key too (the long search's find, 2026-11-28).
LONE = ('caf\udce9', '\ud800', ['x', 'b\udc80'], {'k': {'\udfff': 1}})


def _lone_maps():
    """Maps (action_inputs) with a lone surrogate, or good ones."""
    return (st.sampled_from([{'size': value} for value in LONE]) |
            st.dictionaries(st.sampled_from(('size', 'k')), SCALARS,
                            max_size=2))


_DECIDING = dict(RUN_TIME['external']['thing']['properties'],
                 replace_on_change_inputs=[],
                 replace_decision={'workflow': 'fail_quoting_size'})
_DECIDING['actions'] = {'CREATE': {'workflow': 'echo_create'},
                        'DELETE': {'workflow': 'echo_create'}}
# (template, resource, property, path in it, good value, bad values).
STORED_WHOLE = {
    'deployment name': ('component', 'deployment', 'name', ('name',),
                        'deploy-1', _bad_texts),
    'deployment token': ('component', 'deployment', 'action_request',
                         ('action_request',), '', _bad_texts),
    'thing token': ('external', 'thing', 'action_request',
                    ('action_request',), '', _bad_texts),
    # The size changes too: the thing is replaced, the new one's CREATE
    # execution gets the id.
    'execution id': ('external', 'thing', 'description', ('description',),
                     'a thing', _chosen_ids),
    'replace_decision': ('deciding', 'thing', 'input', ('input', 'size'),
                         1, lambda: (json_value() | _bad_texts() |
                                     st.sampled_from(LONE))),
    # A request (the token changes too) with its own inputs.
    'requested inputs': ('external', 'thing', 'action_inputs',
                         ('action_inputs',), {}, _lone_maps),
}
RUN_TIME_UPDATED = dict(RUN_TIME, deciding={'thing': dict(
    RUN_TIME['external']['thing'], properties=_DECIDING)})


def _given(name, path, value):
    found = template(name, RUN_TIME_UPDATED[name])
    resource = 'deployment' if name == 'component' else 'thing'
    props = found['resources'][resource]['properties']
    _at(props, path[:-1])[path[-1]] = {'get_attr': [BAD, 'value']}
    if name == 'external' and path == ('description',):
        props['input'] = {'size': 2 if value != 'a thing' else 1}
    if path == ('action_inputs',) and value != {}:
        props['action_request'] = 'rotate-1'  # a new request
    found['resources'][BAD] = {'type': 'OS::Heat::Value',
                               'properties': {'value': value}}
    return found


@st.composite
def stored_whole_updates(draw):
    """A stack whose value Heat stores whole is made bad by an update.

    The deployment's name, a request token, the id Mistral gives an
    execution, a replace_decision's input, a request's action_inputs:
    each through get_attr, good on CREATE, then any value. A case:
    (name, before, after, resource, prop).
    """
    place = draw(st.sampled_from(sorted(STORED_WHOLE)))
    name, resource, prop, path, good, bad = STORED_WHOLE[place]
    value = draw(bad())
    return (name, _given(name, path, good), _given(name, path, value),
            resource, prop)
