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
"""The contract between the engine side and the in-instance agent.

What OS::Heat::SoftwareDeployment delivers to a server (a deployment with
its derived-config inputs), what OS::Heat::SoftwareComponent stores in it,
and what the server signals back. Both sides read these names from here.
No Heat import: the agent runs on servers without Heat. Where Heat defines
a name, ours is the same (tests/unit/test_protocol.py compares them with
the installed Heat).
"""

import re

# The resource actions a deployment is applied for (Heat's ALLOWED
# DEPLOY_ACTIONS), in the order messages list them.
LIFECYCLE_ACTIONS = (
    CREATE, DELETE, SUSPEND, RESUME, UPDATE,
) = (
    'CREATE', 'DELETE', 'SUSPEND', 'RESUME', 'UPDATE',
)

# A server's metadata lists its deployments under this key; the heat-config
# file os-apply-config writes holds the list itself.
METADATA_DEPLOYMENTS = 'deployments'

# One item of that list (Heat's software-config format), and the keys of
# its inputs and outputs.
DEPLOYMENT_KEYS = (
    ID, NAME, GROUP, CONFIG, INPUTS, OUTPUTS, OPTIONS,
) = (
    'id', 'name', 'group', 'config', 'inputs', 'outputs', 'options',
)
IO_KEYS = (
    IO_NAME, IO_TYPE, IO_VALUE, IO_ERROR_OUTPUT,
) = (
    'name', 'type', 'value', 'error_output',
)
STRING_TYPE = 'String'

# Inputs the engine adds to every deployment (Heat's DERIVED_CONFIG_INPUTS).
DERIVED_INPUTS = (
    DEPLOY_SERVER_ID, DEPLOY_ACTION,
    DEPLOY_SIGNAL_ID, DEPLOY_STACK_ID,
    DEPLOY_RESOURCE_NAME, DEPLOY_AUTH_URL,
    DEPLOY_USERNAME, DEPLOY_PASSWORD,
    DEPLOY_PROJECT_ID, DEPLOY_USER_ID,
    DEPLOY_SIGNAL_VERB, DEPLOY_SIGNAL_TRANSPORT,
    DEPLOY_QUEUE_ID, DEPLOY_REGION_NAME,
) = (
    'deploy_server_id', 'deploy_action',
    'deploy_signal_id', 'deploy_stack_id',
    'deploy_resource_name', 'deploy_auth_url',
    'deploy_username', 'deploy_password',
    'deploy_project_id', 'deploy_user_id',
    'deploy_signal_verb', 'deploy_signal_transport',
    'deploy_queue_id', 'deploy_region_name',
)
# Ours, added to those: a String, TRUE when the server may signal progress.
DEPLOY_STATUS_AWARE = 'deploy_status_aware'
# Added when the deployment has a run_timeout: its seconds, so that the
# agent stops a tool Heat no longer waits for.
DEPLOY_RUN_TIMEOUT = 'deploy_run_timeout'
TRUE, FALSE = 'true', 'false'

# Inputs that are a credential or carry a signature (deploy_signal_id is a
# pre-signed URL).
SECRET_INPUTS = (DEPLOY_PASSWORD, DEPLOY_SIGNAL_ID)

# Values of deploy_signal_transport (Heat's SIGNAL_TRANSPORTS). Heat hands
# only HEAT_SIGNAL and CFN_SIGNAL signals to the resource; the others are
# polled by the engine, which would take a progress signal as the result.
SIGNAL_TRANSPORTS = (
    CFN_SIGNAL, TEMP_URL_SIGNAL, HEAT_SIGNAL, NO_SIGNAL, ZAQAR_SIGNAL,
) = (
    'CFN_SIGNAL', 'TEMP_URL_SIGNAL', 'HEAT_SIGNAL', 'NO_SIGNAL',
    'ZAQAR_SIGNAL',
)
STATUS_AWARE_TRANSPORTS = (HEAT_SIGNAL, CFN_SIGNAL)
DEFAULT_SIGNAL_VERB = 'POST'

# A signal's body: the outputs by name plus these keys. The first three are
# Heat's (also the deployment's attributes); the last two are progress.
STANDARD_OUTPUTS = (
    DEPLOY_STDOUT, DEPLOY_STDERR, DEPLOY_STATUS_CODE,
) = (
    'deploy_stdout', 'deploy_stderr', 'deploy_status_code',
)
PROGRESS_KEYS = (
    DEPLOY_STATUS, DEPLOY_STATUS_REASON,
) = (
    'deploy_status', 'deploy_status_reason',
)
SIGNAL_KEYS = STANDARD_OUTPUTS + PROGRESS_KEYS

# Values of deploy_status (a deployment's statuses in Heat).
STATUSES = (
    IN_PROGRESS, COMPLETE, FAILED,
) = (
    'IN_PROGRESS', 'COMPLETE', 'FAILED',
)

# A SoftwareComponent as stored and delivered: group COMPONENT_GROUP, config
# {CONFIGS: [{ACTIONS, CONFIG, TOOL, OPTIONS}, ...]}.
COMPONENT_GROUP = 'component'
CONFIGS = 'configs'
ENTRY_KEYS = (
    ACTIONS, ENTRY_CONFIG, TOOL, ENTRY_OPTIONS,
) = (
    'actions', CONFIG, 'tool', OPTIONS,
)


def is_true(value):
    """Whether an input value means true (a JSON true or "true")."""
    return value is True or (isinstance(value, str) and
                             value.strip().lower() == TRUE)


def tool_options(options, tool, tools):
    """The options an entry of `tool` receives from a component's options.

    A key named like one of `tools` (the tools of the component's entries)
    is that tool's own section: the entry gets the keys that are not a
    section plus its own tool's section. Anything but a map is kept as is.
    """
    if not isinstance(options, dict):
        return options
    return {key: value for key, value in options.items()
            if key not in tools or key == tool}


# Text Heat's MySQL columns cannot hold: a lone surrogate (JSON may escape
# one, "\udce9"; UTF-8 cannot encode it) and, as Heat creates its tables
# with MySQL's 3-byte utf8, any character above U+FFFF.
_LONE_SURROGATES = '\ud800-\udfff'
_NOT_STORABLE = re.compile('[%s\U00010000-\U0010ffff]' % _LONE_SURROGATES)
# Text no UTF-8 can carry: sent as JSON it goes escaped ("\udce9"), and
# the server that decodes it fails where it writes it (Mistral stops
# answering). Above U+FFFF is fine in JSON: it goes as a surrogate pair.
_NOT_SENDABLE = re.compile('[%s]' % _LONE_SURROGATES)
# Characters of any text our types raise or store. Heat keeps a failed
# action's error as the resource's and the stack's status_reason, a MySQL
# TEXT column (65535 bytes, 3 per character in utf8), prefixed again by
# each nested stack; an event keeps 255 characters of it.
MAX_STORED_TEXT = 4096
# Characters of a name (a Mistral workflow's, at most 255 there) quoted.
MAX_NAME_SHOWN = 255


def storable_text(text, limit=MAX_STORED_TEXT):
    """`text` as the database can hold it, at most `limit` characters.

    Each character the database cannot hold becomes U+FFFD; a longer text
    is cut, '...' marking the cut. limit=None: not cut.
    """
    text = _NOT_STORABLE.sub('\ufffd', str(text))
    if limit is None or len(text) <= limit:
        return text
    return text[:limit] + '...'


def shown(value, limit=80):
    """repr(value) for a message: storable text, at most `limit` characters.

    repr escapes a lone surrogate; storable_text replaces the rest.
    """
    return storable_text(repr(value), limit)


def is_storable(text):
    """Whether the database can hold every character of `text`."""
    return not _NOT_STORABLE.search(text)


def whole_text_problem(value, limit):
    """Why string `value` cannot be stored whole in `limit` characters.

    None if it can (or is not a string: its type is checked elsewhere).
    For text Heat stores as it is (a name, a token): cut or with a
    character replaced it would be another value.
    """
    if not isinstance(value, str):
        return None
    if not is_storable(value):
        return ('%s holds a character the database cannot store (a lone '
                'surrogate or one above U+FFFF)' % shown(value))
    if len(value) > limit:
        return ('%d characters is too long: Heat stores at most %d (%s)'
                % (len(value), limit, shown(value, 40)))
    return None


def _strings(value):
    """Every string of a JSON value, map keys too, at any depth."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)


def sendable_problem(value):
    """Why a JSON value cannot be sent to another service as text, or None.

    A string holding a lone surrogate, anywhere in it: the one character
    no UTF-8 text can carry. Text above U+FFFF is sent (JSON escapes it
    as a pair); whether it can be stored is the receiver's to say.
    """
    for text in _strings(value):
        if _NOT_SENDABLE.search(text):
            return ('%s holds a lone surrogate, a character no UTF-8 text '
                    'can carry' % shown(text))
    return None


def storable_id_problem(value):
    """Why a string cannot be an id Heat looks up in its database, or None.

    A query with text the columns cannot hold fails inside the engine (a
    traceback in its log) instead of finding nothing.
    """
    if isinstance(value, str) and not is_storable(value):
        return ('%s is not an id: it holds a character the database cannot '
                'store (a lone surrogate or one above U+FFFF)' % shown(value))
    return None
