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
"""Commands print only what they are about."""

import contextlib
import logging
import warnings


@contextlib.contextmanager
def heat_kept_quiet():
    """Silence Heat's and the clients' logging and warnings.

    Heat logs a notice for each of its deprecated types while its environment
    is built, an old engine runtime warns when imported, keystoneauth logs
    its version discovery: none of that is what a command is about.
    """
    root = logging.getLogger()
    silent = logging.NullHandler()
    root.addHandler(silent)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            yield
    finally:
        root.removeHandler(silent)
