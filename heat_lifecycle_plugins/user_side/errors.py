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
"""The one error the user-side library raises: a line for the user.

The console script and `openstack lifecycle` print it as `error: ...`
and exit 2; the dashboard shows it as a message.
"""


class UserSideError(Exception):
    """Bad input, or Heat cannot be reached or asked: one line."""


class Refused(UserSideError):
    """Heat's policy refused the user (HTTP 403)."""
