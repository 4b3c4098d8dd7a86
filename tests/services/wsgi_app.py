"""WSGI entry point for gunicorn: one of Heat's or Keystone's API apps.

HLP_WSGI_APP names the app (heat-api, heat-api-cfn, keystone) and
HLP_WSGI_CONFIG its config file. The apps parse sys.argv with oslo.config, so
gunicorn's own arguments are replaced first.
"""

import os
import sys


def _load():
    app = os.environ['HLP_WSGI_APP']
    config = os.environ['HLP_WSGI_CONFIG']
    if app == 'keystone':
        os.environ['OS_KEYSTONE_CONFIG_FILES'] = config
        sys.argv = ['keystone']
        from keystone.server import wsgi
        return wsgi.initialize_public_application()
    sys.argv = [app, '--config-file', config]
    if app == 'heat-api':
        from heat.api.openstack import wsgi
    elif app == 'heat-api-cfn':
        from heat.api.cfn import wsgi
    else:
        raise SystemExit('unknown HLP_WSGI_APP %r' % app)
    return wsgi.init_application()


application = _load()
