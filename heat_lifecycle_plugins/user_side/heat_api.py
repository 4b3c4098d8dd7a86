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
"""heat-api as the commands read it: the user's cloud and Heat's answers.

The cloud is chosen as the openstack client chooses it (clouds.yaml, the
OS_* variables and --os-* options, through openstack.config and
keystoneauth1); python-heatclient reads the stack, its nested stacks,
events and software deployments as plain dicts. Every failure becomes a
CommandError: one line for the user, exit status 2.
"""

import argparse
import contextlib
import re

from heat_lifecycle_plugins.user_side import diagnosis
from heat_lifecycle_plugins.user_side import waiting

EXIT_OK, EXIT_FAILED, EXIT_ERROR = 0, 1, 2
SERVICE_TYPE = 'orchestration'
# The dests of the why command's own arguments; every other one is a cloud
# option.
OWN_ARGUMENTS = ('command', 'func', 'stack', 'json')
# A read sent again after a dropped connection, at most this many times
# (keystoneauth waits 0.5 s, then twice as long each time).
READ_RETRIES = 3


class CommandError(Exception):
    """Bad input, or Heat cannot be reached or asked: one line."""


def add_cloud_arguments(parser, argv):
    """The openstack client's cloud options, if `argv` runs the command."""
    if argv is None:
        return
    from openstack import config
    try:
        config.OpenStackConfig().register_argparse_arguments(
            parser, argv, service_keys=[SERVICE_TYPE])
    except Exception as exc:
        # Registering only reads the configuration: an unknown --os-cloud,
        # a clouds.yaml that is not YAML or not a map of clouds, ...
        raise CommandError('cloud configuration: %s' % _one_line(exc))


def heat_client(args, own=OWN_ARGUMENTS):
    """python-heatclient for the cloud the user's options name.

    own: the command's own argument names (all others are cloud options).
    """
    from heatclient import client
    from openstack import config
    options = argparse.Namespace(**{
        key: value for key, value in vars(args).items()
        if key not in own})
    cloud = config.OpenStackConfig().get_one(argparse=options)
    return reads_retried(client.Client(
        '1', session=cloud.get_session(), service_type=SERVICE_TYPE,
        interface=cloud.get_interface(SERVICE_TYPE),
        region_name=cloud.get_region_name(SERVICE_TYPE),
        endpoint_override=cloud.get_endpoint(SERVICE_TYPE)))


def reads_retried(hc):
    """hc, its GETs sent again when the connection drops (READ_RETRIES).

    A server closes an idle keep-alive connection as it likes (heat-api
    behind gunicorn after 2 s, a restart): a poll sent on it just then
    fails with no answer. A read is safe to send again; a write is not
    retried here (run_action's send_request decides for its update).
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


def _one_line(exc):
    return ' '.join(str(exc).split()) or type(exc).__name__


_UNREACHABLE = re.compile(r'connection to (?P<url>\S+?):? .*?'
                          r'(?:\[Errno -?\d+\] (?P<why>[^"\')]+))?["\')]*$')


def _unreachable(exc):
    """keystoneauth's ConnectFailure as 'URL: why' (it quotes urllib3)."""
    text = _one_line(exc)
    match = _UNREACHABLE.search(text)
    if not match:
        return text
    return '%s: %s' % (match.group('url'),
                       (match.group('why') or 'connection failed').strip())


@contextlib.contextmanager
def heat_errors(stack_ref):
    """Failures of the cloud or of Heat's answers, as CommandErrors."""
    from heatclient import exc as heat_exc
    from keystoneauth1 import exceptions as ks_exc
    from openstack import exceptions as sdk_exc
    try:
        yield
    except CommandError:
        raise
    except heat_exc.HTTPNotFound:
        raise CommandError('stack %s not found' % stack_ref)
    except ks_exc.MissingRequiredOptions as exc:
        raise CommandError('cannot authenticate: %s (set OS_* variables, '
                           '--os-* options or --os-cloud)' % _one_line(exc))
    except ks_exc.ConnectFailure as exc:
        raise CommandError('cannot reach the cloud: %s' % _unreachable(exc))
    except ks_exc.EndpointNotFound as exc:
        raise CommandError('no orchestration (Heat) endpoint: %s'
                           % _one_line(exc))
    except (ks_exc.ClientException, sdk_exc.SDKException,
            heat_exc.BaseException) as exc:
        raise CommandError('%s: %s' % (type(exc).__name__, _one_line(exc)))
    except Exception as exc:
        # Never a traceback, but say it is not the cloud's answer.
        raise CommandError('unexpected %s while reading %s: %s' % (
            type(exc).__name__, stack_ref, _one_line(exc)))
