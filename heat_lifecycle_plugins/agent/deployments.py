"""The deployments list written by os-collect-config, and their inputs."""

import json
import os
import stat

# Inputs whose values are credentials or carry a signature.
SECRET_INPUTS = ('deploy_password', 'deploy_signal_id', 'deploy_auth_token')
SECRET_WORDS = ('password', 'secret', 'token')
REDACTED = '***'


class BadDeployment(ValueError):
    """A deployment the agent cannot run; the message says why."""


def load(path):
    """The list of deployments in the metadata file at `path`.

    heat-agents' os-apply-config template writes the bare list; a map with a
    `deployments` key (the server's whole metadata) is accepted too. The file
    holds credentials, so it is made private as 55-heat-config does.
    """
    try:
        if stat.S_IMODE(os.lstat(path).st_mode) != 0o600:
            os.chmod(path, 0o600)
        with open(path, encoding='utf-8') as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise BadDeployment('metadata file %s cannot be read: %s'
                            % (path, exc))
    if not text.strip():
        return []
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise BadDeployment('metadata file %s is not JSON: %s' % (path, exc))
    if isinstance(data, dict):
        data = data.get('deployments') or []
    if not isinstance(data, list):
        raise BadDeployment('metadata file %s holds %s, not a list of '
                            'deployments' % (path, type(data).__name__))
    return data


def describe(deployment):
    """A short name for logs and error messages (never input values)."""
    if not isinstance(deployment, dict):
        return repr(deployment)[:80]
    return '%s (id %s)' % (deployment.get('name') or '?',
                           deployment.get('id') or '?')


def check(deployment):
    """Raise BadDeployment unless `deployment` has the fields we use."""
    if not isinstance(deployment, dict):
        raise BadDeployment('deployment %s is a %s, not a map'
                            % (describe(deployment),
                               type(deployment).__name__))
    dep_id = deployment.get('id')
    if not isinstance(dep_id, str) or not dep_id or '/' in dep_id \
            or dep_id.startswith('.'):
        raise BadDeployment('deployment %s: bad id %r'
                            % (describe(deployment), dep_id))
    inputs = deployment.get('inputs') or []
    if not isinstance(inputs, list):
        raise BadDeployment('deployment %s: inputs must be a list, got a %s'
                            % (describe(deployment), type(inputs).__name__))
    for index, item in enumerate(inputs):
        # Input values may be secrets: name the item, never print it.
        if not isinstance(item, dict) or not isinstance(item.get('name'),
                                                        str):
            raise BadDeployment('deployment %s: inputs[%d] must be a map '
                                'with a string name, got a %s'
                                % (describe(deployment), index,
                                   type(item).__name__))
    group = deployment.get('group')
    if not isinstance(group, str) or not group:
        raise BadDeployment('deployment %s: bad group %r'
                            % (describe(deployment), group))


def input_values(deployment):
    """name -> value of the deployment's inputs."""
    return {i['name']: i.get('value')
            for i in deployment.get('inputs') or []
            if isinstance(i, dict) and 'name' in i}


def is_true(value):
    return value is True or (isinstance(value, str) and
                             value.strip().lower() == 'true')


def stringify_string_inputs(deployment):
    """Give String-typed inputs string values, as hooks expect.

    heat-agents hooks put inputs into the environment and fail on anything
    but a string.
    """
    for item in deployment.get('inputs') or []:
        if item.get('type') == 'String' and 'value' in item \
                and not isinstance(item['value'], str):
            value = item['value']
            item['value'] = ('' if value is None else
                             json.dumps(value) if isinstance(value,
                                                             (dict, list))
                             else str(value).lower()
                             if isinstance(value, bool) else str(value))


def is_secret(name):
    name = name.lower()
    return name in SECRET_INPUTS or any(w in name for w in SECRET_WORDS)


def redacted(deployment):
    """A copy of `deployment` without credentials, safe to keep on disk."""
    copy = dict(deployment)
    copy['inputs'] = [
        dict(i, value=REDACTED) if is_secret(i.get('name', '')) else i
        for i in deployment.get('inputs') or [] if isinstance(i, dict)]
    return copy
