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
import logging
import uuid

from heat.api.middleware import fault

from tests.fuzz import templates

ENGINE = None  # the session's in-process engine (tests/fuzz/conftest.py)
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
    if prop is not None:
        assert prop in message, 'property %r not named: %s' % (
            prop, message[:2000])


def dry_run(case):
    """A broken template is refused with a 4xx naming what broke.

    A broken property: the error names the resource and the property. A
    broken layout (a resource's type or sections): a 4xx is all Heat
    promises (an unknown type is named, not the resource).
    """
    _name, template, resource, prop = case
    refused = refusal(lambda: ENGINE.client.preview_stack(
        ENGINE.ctx, 'fuzz-%s' % uuid.uuid4().hex[:8], template, {}, {},
        {}))
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
    refused (4xx), fails or completes; `untouched` still gives KEPT, and
    the delete completes.
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
        if refused is None:
            ENGINE.wait(ident, 'UPDATE', expect=None)
        elif prop is not None:
            _names_what_broke(refused, resource, prop, template)
        assert ENGINE.outputs(ident)['kept'] == KEPT
    finally:
        ENGINE.delete(ident)
