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
"""Horizon's WSGI app behind the static files, as the web server of a
dashboard host serves them.

Operators put Horizon's collected and compressed static files (STATIC_ROOT)
under STATIC_URL in the web server (Apache's `Alias /static`, Horizon's
install guide) and the rest to openstack_dashboard.wsgi. gunicorn serves
this module for horizon.Horizon: the files straight from STATIC_ROOT, so
that a file collectstatic or compress did not write is a 404 here too, and
every other path to Horizon's own, unchanged WSGI app.
"""

import mimetypes
import os

from openstack_dashboard import wsgi  # settings: openstack_dashboard.settings

from django.conf import settings


def _static_file(path):
    """The file of STATIC_ROOT a request path names, or None."""
    if not path.startswith(settings.STATIC_URL):
        return None
    root = os.path.realpath(settings.STATIC_ROOT)
    name = os.path.realpath(os.path.join(
        root, path[len(settings.STATIC_URL):]))
    return name if name.startswith(root + os.sep) else ''


def application(environ, start_response):
    name = _static_file(environ.get('PATH_INFO', ''))
    if name is None:
        return wsgi.application(environ, start_response)
    if not name or not os.path.isfile(name):
        start_response('404 Not Found', [('Content-Type', 'text/plain')])
        return [b'not found\n']
    kind = mimetypes.guess_type(name)[0] or 'application/octet-stream'
    with open(name, 'rb') as f:
        body = f.read()
    start_response('200 OK', [('Content-Type', kind),
                              ('Content-Length', str(len(body)))])
    return [body]
