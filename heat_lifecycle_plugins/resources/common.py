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
"""Helpers the resource types share.

The support status of what this package adds, the path of a property in
errors, constraints that say what is wrong with a value, the check of a
property known at template validation, errors whose text the database can
hold, and the bookkeeping of day-two requests in a resource's data
(action_requests holds the rules).
"""

import functools
import re

from heat.common import exception
from heat.common.i18n import _
from heat.engine import constraints
from heat.engine import properties
from heat.engine import support

from heat_lifecycle_plugins import action_requests
from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins import protocol

ADDED = support.SupportStatus(support.SUPPORTED,
                              _('Added by heat-lifecycle-plugins.'))


def updatable(kind, description, **extra):
    """A property that changes in place on a stack update."""
    return properties.Schema(kind, description, update_allowed=True, **extra)


def added_schema(kind, description, **extra):
    """An updatable property this package adds to an upstream type."""
    return updatable(kind, description, support_status=ADDED, **extra)


def wait_budget(stack):
    """Seconds one check_*_complete call may wait: the stack's time left.

    Each return to Heat costs the second Heat's TaskRunner sleeps before
    the next check, in which an end that came waits; so a check that waits
    for something waits to its end or the stack's timeout, looking for the
    stack's cancel meanwhile (Heat tells a resource only between two
    checks). 0 on a legacy stack, whose resources share one thread: there
    a check looks once.
    """
    if not stack.convergence:
        return 0
    return max(0.0, stack.time_remaining())


def property_path(res, *keys):
    """The path of a property of `res` as Heat's errors name it."""
    return [res.stack.t.RESOURCES, res.name,
            res.stack.t.get_section_name('properties')] + list(keys)


class ProblemConstraint(constraints.Constraint):
    """A property constraint: problem_of(value) says what is wrong, or None.

    Heat applies it wherever property values are checked (stack create,
    update, preview); template validation skips values, which
    refuse_known_problem covers. text: the rule, in the type's reference.
    """

    def __init__(self, value_type, problem_of, text):
        super(ProblemConstraint, self).__init__()
        self.valid_types = (value_type,)
        self._problem_of = problem_of
        self._text = text

    def validate(self, value, schema=None, context=None):
        problem = self._problem_of(value)
        if problem:  # Heat stores it when the value came at run time
            raise ValueError(protocol.storable_text(problem))

    def _str(self):
        return self._text

    def _constraint(self):
        return self._text


def refuse_known_problem(res, name, problem_of):
    """StackValidationFailed if property `name`, known now, has a problem.

    For validate_template: a value not resolvable yet is checked at create
    or update.
    """
    try:
        value = res.properties[name]
    except Exception:  # not resolvable yet
        return
    problem = problem_of(value)
    if problem:
        raise exception.StackValidationFailed(
            error='Property error', path=property_path(res, name),
            message=protocol.storable_text(problem))


def came_at_run_time(raw, path):
    """Whether a function gives the value at `path` of raw properties.

    raw: a Properties' data, unresolved; a function (get_attr, get_param,
    ...) anywhere on the way counts.
    """
    for key in path:
        if heat_internals.is_function(raw):
            return True
        if not isinstance(raw, dict):
            return False
        raw = raw.get(key)
    return heat_internals.is_function(raw)


def storable_errors(handler):
    """`handler`, its errors' text made storable (protocol.storable_text).

    Heat keeps a failed action's error as the resource's and the stack's
    status_reason. An error quoting a value with a character MariaDB's utf8
    columns refuse fails that write inside check_resource, and the stack
    stays IN_PROGRESS for good. Heat's errors keep their type, path and
    wording; only the characters change.
    """
    @functools.wraps(handler)
    def handle(*args, **kwargs):
        try:
            return handler(*args, **kwargs)
        except exception.HeatException as exc:
            _make_storable(exc)
            raise
        except Exception as exc:
            text = str(exc)
            if protocol.storable_text(text) == text:
                raise
            raise exception.Error(protocol.storable_text(text)) from exc
    handle.storable_errors = True
    return handle


# What Heat calls to run an action: handle_<action>[_cancel] and
# check_<action>_complete.
HANDLER = re.compile(r'^(handle_[a-z_]+|check_[a-z_]+_complete)$')


class StorableErrors(object):
    """A mixin: whatever our types raise is storable text (storable_errors).

    Every handle_* and check_*_complete of a subclass, its own or
    inherited from Heat's classes, is wrapped when the class is made: a
    value that came at run time (get_attr, an environment's parameter) or
    a remote text quoted in any action's error must never wedge a stack.
    Heat also validates properties again as create's pre-function and,
    for an update, the new properties before handle_update, outside any
    handle_*, and keeps that error too ('"..." is not a list'): those are
    wrapped where Heat makes the properties. The mixin goes first among
    the bases.
    """

    def __init_subclass__(cls, **kwargs):
        super(StorableErrors, cls).__init_subclass__(**kwargs)
        for name in dir(cls):
            handler = getattr(cls, name, None)
            if (HANDLER.match(name) and callable(handler) and
                    not getattr(handler, 'storable_errors', False)):
                setattr(cls, name, storable_errors(handler))

    def _needs_update(self, *args, **kwargs):
        """Heat's decision to update or replace, its errors a ResourceFailure.

        Heat asks before it records an UPDATE, outside any handler: only
        UpdateReplace and a ResourceFailure end the resource's update
        there, anything else escaped check_resource and left the stack
        IN_PROGRESS. A value read now (get_attr) or a replace_decision
        workflow's failure is quoted: storable text.
        """
        try:
            return super(StorableErrors, self)._needs_update(*args, **kwargs)
        except exception.UpdateReplace:
            raise
        except exception.ResourceFailure as exc:
            _make_storable(exc)
            raise
        except Exception as exc:
            if isinstance(exc, exception.HeatException):
                _make_storable(exc)
            elif protocol.storable_text(str(exc)) != str(exc):
                exc = exception.Error(protocol.storable_text(str(exc)))
            raise exception.ResourceFailure(exc, self, self.UPDATE)

    def reparse(self, client_resolve=True):
        super(StorableErrors, self).reparse(client_resolve)
        self.properties.validate = storable_errors(self.properties.validate)

    def _prepare_update_props(self, after, before):
        after_props, before_props = super(
            StorableErrors, self)._prepare_update_props(after, before)
        after_props.validate = storable_errors(after_props.validate)
        return after_props, before_props


def _make_storable(exc):
    """Replace, in place, what `exc` would store that the database cannot."""
    exc.message = protocol.storable_text(str(exc))
    for name in ('error', 'error_message'):  # HeatExceptionWithPath
        text = getattr(exc, name, None)
        if isinstance(text, str):
            setattr(exc, name, protocol.storable_text(text))
    if isinstance(getattr(exc, 'path', None), list):
        exc.path = [protocol.storable_text(item) if isinstance(item, str)
                    else item for item in exc.path]


def note_request(res, requested, token):
    """Remember a request from its start until it succeeds (or forget)."""
    if requested:
        res.data_set(action_requests.REQUESTED_KEY, requested)
        res.data_set(action_requests.TOKEN_KEY, token)
    else:
        request_ended(res)


def request_ended(res):
    """The request succeeded (or none runs): nothing to remember."""
    if action_requests.REQUESTED_KEY in res.data():
        res.data_delete(action_requests.REQUESTED_KEY)


def failed_in_request(res):
    """Whether the resource FAILED in a request: not to be replaced."""
    return action_requests.failed_request(res.action, res.data())
