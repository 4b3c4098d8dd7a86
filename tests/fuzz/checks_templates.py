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
"""What must hold for any template given to the engine with our types.

`stack create --dry-run` (the engine's preview_stack) validates a template
fully and creates nothing: a template is accepted, or refused with an
error heat-api answers with a 4xx that names the broken resource and
property. An update with a broken template leaves the resources it did
not touch as they were, and the stack stays deletable.
"""

import contextlib
import functools
import logging
import uuid

from heat.api.middleware import fault

from heat_lifecycle_plugins import protocol
from tests.fuzz import templates

ENGINE = None  # the session's in-process engine (tests/fuzz/conftest.py)
MISTRAL = None  # its Mistral
# What preview returns is not checked: only that it returned.
KEPT = 'kept'


def http_status(exc):
    """The status heat-api's fault middleware answers `exc` with."""
    return fault.FaultWrapper(None)._map_exception_to_error(type(exc)).code


# Heat's own: preview formats every nested member's properties and logs
# a traceback for a value of the wrong type, as it does for the in-tree
# chain and ResourceGroup (nested stacks are validated without values;
# the create refuses the member, by name).
HEATS_OWN = (('heat.engine.api', 'Error in fetching property value of '),)


class _Tracebacks(logging.Handler):
    """Records of any logger that carry a traceback, but Heat's own."""

    def __init__(self):
        super(_Tracebacks, self).__init__(logging.DEBUG)
        self.found = []

    def emit(self, record):
        heats_own = any(record.name == name and
                        record.getMessage().startswith(text)
                        for name, text in HEATS_OWN)
        if (record.exc_info or record.exc_text) and not heats_own:
            self.found.append('%s: %s' % (record.name,
                                          record.getMessage()[:300]))


@contextlib.contextmanager
def no_traceback_logged():
    handler = _Tracebacks()
    logging.getLogger().addHandler(handler)
    try:
        yield
    finally:
        logging.getLogger().removeHandler(handler)
    assert not handler.found, 'tracebacks logged: %s' % handler.found


@contextlib.contextmanager
def checking_with(engine, mistral):
    """ENGINE: `engine`, its catalog listing Heat and `mistral`."""
    global ENGINE, MISTRAL
    from heat_lifecycle_fixtures import inprocess_engine
    from heat_lifecycle_fixtures import tokens
    plain = engine.ctx
    engine.ctx = inprocess_engine.context_with_heat_catalog(plain, [
        tokens.catalog_entry('workflowv2', 'mistral', mistral.url)])
    ENGINE, MISTRAL = engine, mistral
    try:
        yield engine
    finally:
        engine.ctx = plain
        ENGINE = MISTRAL = None


def refusal(call):
    """None if `call` succeeded, else its exception, checked for a 4xx."""
    try:
        with no_traceback_logged():
            call()
    except AssertionError:
        raise
    except Exception as exc:
        status = http_status(exc)
        assert status < 500, 'HTTP %d from %s: %s' % (
            status, type(exc).__name__, str(exc)[:2000])
        return exc
    return None


def _names_what_broke(message, resource, prop, template):
    message = str(message)
    for dependent in templates.dependents(template, resource):
        if message.startswith('Resource %s: property ' % dependent):
            return  # a resource that uses the broken one refused it
    assert resource in message, 'resource %r not named: %s' % (
        resource, message[:2000])
    if prop == 'resource_properties' and '%s<nested_stack>' % resource \
            in message:
        return  # names the member and its own property instead
    if prop is not None:  # as the database can hold it
        assert protocol.storable_text(prop) in message, \
            'property %r not named: %s' % (prop, message[:2000])


@functools.lru_cache(maxsize=None)
def _properties_schema(type_name):
    return ENGINE.client.resource_schema(ENGINE.ctx, type_name)['properties']


def known_invalid(template, resource, prop):
    """Why a case with a broken property is invalid for sure, or None.

    An unknown property: Heat refuses it, whatever the values. (A required
    one set to null is not: Heat then takes its default.)
    """
    if prop is None:
        return None
    body = template['resources'][resource]
    schema = _properties_schema(body['type'])
    unknown = sorted(set(body.get('properties') or {}) - set(schema),
                     key=repr)
    return 'unknown property %r' % (unknown[0],) if unknown else None


def _refused_if_invalid(refused, case):
    _name, template, resource, prop = case
    why = known_invalid(template, resource, prop)
    assert why is None or refused is not None, 'accepted with %s' % why


def dry_run(case):
    """A broken template is refused with a 4xx naming what broke.

    A broken property: the error names the resource and the property; a
    known-invalid one (known_invalid) must be refused. A broken layout (a
    resource's type or sections): a 4xx is all Heat promises (an unknown
    type is named, not the resource).
    """
    _name, template, resource, prop = case
    refused = refusal(lambda: ENGINE.client.preview_stack(
        ENGINE.ctx, 'fuzz-%s' % uuid.uuid4().hex[:8], template, {}, {},
        {}))
    _refused_if_invalid(refused, case)
    if refused is not None and prop is not None:
        _names_what_broke(refused, resource, prop, template)


def refused_by_name(case):
    """A template that is wrong by construction is refused, by name."""
    _name, template, resource, prop = case
    refused = refusal(lambda: ENGINE.client.preview_stack(
        ENGINE.ctx, 'fuzz-%s' % uuid.uuid4().hex[:8], template, {}, {},
        {}))
    assert refused is not None, 'accepted: %r' % (case,)
    _names_what_broke(refused, resource, prop, template)


UNTOUCHED = {'type': 'OS::Heat::Value', 'properties': {'value': KEPT}}


def update_keeps_the_rest(case):
    """An update with a broken resource: the others keep their outputs.

    The stack (the valid template plus an untouched OS::Heat::Value) is
    created, updated with the case's template, and deleted: the update is
    refused (4xx; a known-invalid one must be), fails or completes; every
    stored reason is storable, `untouched` still gives KEPT, and the
    delete completes.
    """
    name, broken, resource, prop = case
    valid = {'heat_template_version': '2016-10-14',
             'resources': dict(templates.template(name)['resources'],
                               untouched=UNTOUCHED),
             'outputs': {'kept': {'value': {
                 'get_attr': ['untouched', 'value']}}}}
    ident = ENGINE.create(valid)
    try:
        template = dict(broken, outputs=valid['outputs'])
        template['resources'] = dict(broken['resources'],
                                     untouched=UNTOUCHED)
        refused = refusal(lambda: ENGINE.update(ident, template,
                                                wait=False))
        _refused_if_invalid(refused, case)
        if refused is None:
            ENGINE.wait(ident, 'UPDATE', expect=None)
            reasons_are_storable(ident)
        elif prop is not None:
            _names_what_broke(refused, resource, prop, template)
        assert ENGINE.outputs(ident)['kept'] == KEPT
    finally:
        ENGINE.delete(ident)


# Heat's columns: a resource's and a stack's status_reason are MySQL TEXT
# (65535 bytes), an event's reason 255 characters.
MAX_REASON_BYTES = 65535
MAX_EVENT_REASON = 255


def _stored_reasons(ident):
    """(where, reason) of the stack, its resources and events, nested too."""
    yield 'stack', ENGINE.show(ident, resolve_outputs=False)[
        'stack_status_reason']
    for res in ENGINE.resources(ident, nested_depth=3):
        yield res['resource_name'], res['resource_status_reason']
    for event in ENGINE.events(ident, nested_depth=3):
        yield 'event of %s' % event['resource_name'], \
            event['resource_status_reason']


def reasons_are_storable(ident):
    """Every stored reason is text the database holds, within its column."""
    for where, reason in _stored_reasons(ident):
        reason = reason or ''
        assert protocol.is_storable(reason), (where, reason[:300])
        assert len(reason.encode('utf-8')) <= MAX_REASON_BYTES, where
        if where.startswith('event of'):
            assert len(reason) <= MAX_EVENT_REASON, (where, len(reason))


def run_time_value(case):
    """A bad value that arrives at run time fails or is refused, never hangs.

    The stack is refused (4xx), or its create ends COMPLETE or FAILED
    within the wait; every stored reason and event is storable text within
    Heat's columns, and the delete completes.
    """
    _name, template, environment, _resource, _prop = case
    created = []
    try:
        refused = refusal(lambda: created.append(ENGINE.create(
            template, environment=environment, wait=False)))
        if refused is not None:
            return
        ENGINE.wait(created[0], 'CREATE', expect=None, timeout=60)
        reasons_are_storable(created[0])
    finally:
        for ident in created:
            ENGINE.delete(ident)


# What a failed update says, by the property made bad. A description (an
# execution id) with a lone surrogate, once Mistral's HTTP 500, is now
# refused before it is sent, as any lone surrogate is.
MISTRAL_SAID = 'MistralError: resources.thing: Mistral at '
# ExternalResource's properties these cases make bad that go to Mistral
# (of the type they must be: a lone surrogate is what is wrong).
SENT_TO_MISTRAL = ('input', 'description', 'action_inputs')
STORED_WHOLE = {'name': 'Properties.name',
                'action_request': 'Properties.action_request',
                'description': MISTRAL_SAID}


def stored_whole_update(case):
    """An update making a value Heat stores whole bad ends; the stack deletes.

    The update is refused (4xx) or ends COMPLETE or FAILED; every stored
    reason is storable; a failed update of a name or token names the
    property, of a description Mistral's error; one with a lone surrogate
    (which Mistral cannot take) fails naming the property. A DELETE may
    fail only on an execution id Heat cannot keep or Mistral refuses (its
    reason storable): once the Mistral gives ids of its own again, it
    completes.
    """
    _name, before, after, _resource, prop = case
    lone = prop in SENT_TO_MISTRAL and protocol.sendable_problem(
        after['resources'][templates.BAD]['properties']['value'])
    ident = ENGINE.create(before)
    try:
        refused = refusal(lambda: ENGINE.update(ident, after, wait=False))
        if refused is None:
            updated = ENGINE.wait(ident, 'UPDATE', expect=None, timeout=60)
            reasons_are_storable(ident)
            reason = updated['stack_status_reason']
            if lone:  # refused before Mistral is asked, by property
                assert updated['stack_status'] == 'FAILED', updated
                for part in (prop, 'lone surrogate'):
                    assert part in reason, (part, reason[:2000])
            elif (updated['stack_status'] == 'FAILED' and
                  prop in STORED_WHOLE):
                assert STORED_WHOLE[prop] in reason, reason[:2000]
    finally:
        state = ENGINE.delete(ident, expect=None)
        if state is not None and state['stack_status'] != 'COMPLETE':
            reasons_are_storable(ident)
            assert MISTRAL_SAID in state['stack_status_reason'], \
                state['stack_status_reason']
            MISTRAL.fix_ids()
            try:
                ENGINE.delete(ident)
            finally:
                MISTRAL.fix_ids(False)
