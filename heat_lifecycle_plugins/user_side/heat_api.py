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
"""heat-api as a stack's user reads it: Heat's answers as plain dicts.

python-heatclient, on whatever session the front end authenticated (the
console script's cloud options, OSC's client manager, Horizon's token),
reads the stack, its nested stacks, events and software deployments as
plain dicts. heat_errors() turns every failure into a UserSideError: one
line for the user.
"""

import contextlib
import re

from heat_lifecycle_plugins.user_side import diagnosis
from heat_lifecycle_plugins.user_side import errors
from heat_lifecycle_plugins.user_side import waiting

SERVICE_TYPE = 'orchestration'
# A read sent again after a dropped connection, at most this many times
# (keystoneauth waits 0.5 s, then twice as long each time).
READ_RETRIES = 3


def reads_retried(hc):
    """hc, its GETs sent again when the connection drops (READ_RETRIES).

    A server closes an idle keep-alive connection as it likes (heat-api
    behind gunicorn after 2 s, a restart): a poll sent on it just then
    fails with no answer. A read is safe to send again; a write is not
    retried here (action_run.send_request decides for its update).
    """
    http = hc.http_client
    send = http.request

    def request(url, method, **kwargs):
        if method.upper() in ('GET', 'HEAD'):
            kwargs.setdefault('connect_retries', READ_RETRIES)
        return send(url, method, **kwargs)
    http.request = request
    return hc


def _plain(resource, parent_path, stack):
    """A resource as diagnosis reads it: the API's dict, path, nested.

    stack: NAME/ID of the stack it was listed in.
    """
    found = resource.to_dict()
    found['path'] = list(parent_path) + [found['resource_name']]
    found['stack_name'] = stack.split('/')[0]
    found['stack_ref'] = stack
    found['nested_stack'] = nested_stack_of(found)
    found['nested'] = bool(found['nested_stack'])
    return found


def nested_stack_of(resource):
    """NAME/ID of a resource's nested stack (from its links), or None."""
    nested = [link['href'] for link in resource.get('links') or ()
              if link.get('rel') == 'nested']
    # The nested stack as heat-api names it: .../stacks/NAME/ID.
    return ('/'.join(nested[0].rstrip('/').split('/')[-2:])
            if nested else None)


# More names than this in one events query: read the stack's events and
# keep theirs here (a URL has a length limit).
MAX_NAMES_PER_QUERY = 20


def _events(hc, stack, path, names=None, **filters):
    """The events of `stack` (of resources `names`), as plain dicts."""
    if names and len(names) <= MAX_NAMES_PER_QUERY:
        filters['resource_name'] = names
    events = []
    for event in hc.events.list(stack, filters=filters):
        found = event.to_dict()
        if names and found.get('resource_name') not in names:
            continue
        found['path'] = list(path) + [found.get('resource_name')]
        events.append(found)
    return events


def _resources(hc, stack, path):
    """The resources of `stack`, or [] if it is gone (deleted meanwhile)."""
    from heatclient import exc
    try:
        listed = hc.resources.list(stack)
    except exc.HTTPNotFound:
        if not path:
            raise
        return []
    return [_plain(r, path, stack) for r in listed]


def deployment(hc, deployment_id):
    """The software deployment of that id, or None (not one, not ours)."""
    from heatclient import exc
    try:
        return hc.software_deployments.get(deployment_id).to_dict()
    except exc.HTTPException:
        return None


def read_stack(hc, stack_ref):
    """(stack, resources, events, deployments) of a stack, as plain dicts.

    Only a failed stack or one in progress is walked: into the nested
    stacks of the resources worth reading (diagnosis.needs_reading), with
    their events and, for the deployments among them, the software
    deployment.
    """
    stack = hc.stacks.get(stack_ref).to_dict()
    resources, events, deployments = [], [], {}
    if not (diagnosis.stack_failed(stack) or
            waiting.stack_in_progress(stack)):
        return stack, resources, events, deployments
    todo = [((), '%s/%s' % (stack['stack_name'], stack['id']))]
    seen = set()
    while todo:
        path, ident = todo.pop(0)
        if ident in seen:
            continue
        seen.add(ident)
        listed = _resources(hc, ident, path)
        resources += listed
        read = [r for r in listed if diagnosis.needs_reading(r)]
        if read:
            events += _events(hc, ident, path,
                              names=[r['resource_name'] for r in read])
        elif not path:
            # Nothing left to read (a rollback deleted it): what the
            # stack's failure events said.
            events += _events(hc, ident, path, resource_status='FAILED')
        for resource in read:
            if resource['nested_stack']:
                todo.append((resource['path'], resource['nested_stack']))
            elif diagnosis.may_be_deployment(resource):
                deployment_id = resource['physical_resource_id']
                found = deployment(hc, deployment_id)
                if found is not None:
                    deployments[deployment_id] = found
    return stack, resources, events, deployments


def deadline_settings(hc, resource):
    """{start_timeout, run_timeout} of a deployment, from its template.

    A literal or a {get_param: NAME} of its stack; None when unset or
    unknown.
    """
    template = hc.stacks.template(resource['stack_ref'])
    definition = (template.get('resources') or {}).get(
        resource['resource_name']) or {}
    props = definition.get('properties') or {}
    settings, parameters = {}, None
    for name in waiting.DEADLINE_PROPERTIES:
        value = props.get(name)
        if isinstance(value, dict) and 'get_param' in value:
            if parameters is None:
                parameters = hc.stacks.get(
                    resource['stack_ref']).to_dict().get('parameters') or {}
            value = parameters.get(str(value['get_param']))
        try:
            settings[name] = int(value) if value not in (None, '') else None
        except (TypeError, ValueError):
            settings[name] = None
    return settings


def delivered_config(hc, deployment):
    from heatclient import exc
    try:
        return hc.software_configs.get(deployment['config_id']).to_dict()
    except (exc.HTTPException, KeyError):
        return None


def one_line(exc):
    return ' '.join(str(exc).split()) or type(exc).__name__


_UNREACHABLE = re.compile(r'connection to (?P<url>\S+?):? .*?'
                          r'(?:\[Errno -?\d+\] (?P<why>[^"\')]+))?["\')]*$')


def _unreachable(exc):
    """keystoneauth's ConnectFailure as 'URL: why' (it quotes urllib3)."""
    text = one_line(exc)
    match = _UNREACHABLE.search(text)
    if not match:
        return text
    return '%s: %s' % (match.group('url'),
                       (match.group('why') or 'connection failed').strip())


@contextlib.contextmanager
def heat_errors(stack_ref):
    """Failures of the cloud or of Heat's answers, as UserSideErrors."""
    from heatclient import exc as heat_exc
    from keystoneauth1 import exceptions as ks_exc
    from openstack import exceptions as sdk_exc
    fail = errors.UserSideError
    try:
        yield
    except fail:
        raise
    except heat_exc.HTTPNotFound:
        raise fail('stack %s not found' % stack_ref)
    except ks_exc.MissingRequiredOptions as exc:
        raise fail('cannot authenticate: %s (set OS_* variables, --os-* '
                   'options or --os-cloud)' % one_line(exc))
    except ks_exc.ConnectFailure as exc:
        raise fail('cannot reach the cloud: %s' % _unreachable(exc))
    except ks_exc.EndpointNotFound as exc:
        raise fail('no orchestration (Heat) endpoint: %s' % one_line(exc))
    except heat_exc.HTTPForbidden as exc:
        raise errors.Refused('%s: %s' % (type(exc).__name__, one_line(exc)))
    except (ks_exc.ClientException, sdk_exc.SDKException,
            heat_exc.BaseException) as exc:
        raise fail('%s: %s' % (type(exc).__name__, one_line(exc)))
    except Exception as exc:
        # Never a traceback, but say it is not the cloud's answer.
        raise fail('unexpected %s while reading %s: %s' % (
            type(exc).__name__, stack_ref, one_line(exc)))
