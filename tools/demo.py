"""The heat-lifecycle-plugins demo: a loopback cloud, the examples deployed.

Brings up MariaDB, RabbitMQ, Keystone, Mistral, heat-engine (our loader in
plugin_dirs), heat-api and heat-api-cfn on 127.0.0.1; deploys every template
in examples/ through heat-api with python-heatclient (DeployedServers get a
real os-collect-config running heat-lifecycle-agent); walks examples/demo.yaml
through update, suspend, resume; prints each stack's events as a timeline;
deletes the stacks and stops every process by its PID.

    bash tools/demo.sh            # all of the above
    bash tools/demo.sh --keep     # leave the cloud running, print how to use it
    bash tools/demo.sh --stop DIR # stop a kept cloud
"""

import argparse
import glob
import json
import os
import signal
import sys
import tempfile
import time

import yaml

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

from tests.services import cloud as cloud_service  # noqa: E402
from tests.services import deployed_server  # noqa: E402
from tests.services import stacks  # noqa: E402
from tests.services import thing_store  # noqa: E402

EXAMPLES = os.path.join(REPO, 'examples')
WORKFLOWS = os.path.join(EXAMPLES, 'external_resource_workflows.yaml')
PIDS_FILE = 'demo-pids.json'


def say(text=''):
    print(text, flush=True)


class Demo(object):
    def __init__(self, workdir):
        self.workdir = workdir
        self.cloud = None
        self.hc = None
        self.agents = []
        self.failures = []
        self.store = None
        self.deployed = []  # (name, stack id, seen event ids)

    def up(self):
        started = time.time()
        say('== bringing up the loopback cloud in %s' % self.workdir)
        self.cloud = cloud_service.Cloud(os.path.join(self.workdir, 'cloud'))
        self.cloud.start()
        self.hc = self.cloud.heat_client()
        say('   up in %.0f s: keystone %s, heat-api %s%s' % (
            time.time() - started, self.cloud.keystone.url,
            self.cloud.heat.url(self.cloud.keystone.demo_project_id),
            ', mistral %s' % self.cloud.mistral.url
            if self.cloud.mistral else ''))

    def _wait(self, stack_id, action, seen):
        def show(stack):
            try:
                lines = stacks.timeline(self.hc, stack_id, seen)
            except Exception:  # the stack went away as it was deleted
                lines = []
            for line in lines:
                say('   ' + line)
        try:
            stacks.wait(self.hc, stack_id, action, on_poll=show, timeout=600)
        except stacks.StackFailed as exc:
            self.failures.append(str(exc))
            say('   !! %s' % exc)
            return False
        finally:
            if action != 'DELETE':
                show(None)
        return True

    def deploy(self, path, params):
        with open(path) as f:
            text = f.read()
        return self.deploy_text(os.path.splitext(os.path.basename(path))[0],
                                'examples/%s' % os.path.basename(path),
                                text, params)

    def deploy_text(self, name, origin, text, params):
        name = name.replace('_', '-')
        resources = (yaml.safe_load(text) or {}).get('resources') or {}
        servers = sorted(n for n, r in resources.items()
                         if r.get('type') == 'OS::Heat::DeployedServer')
        if any(r.get('type') == 'OS::Mistral::ExternalResource'
               for r in resources.values()) and not self.cloud.mistral:
            self.failures.append('%s needs Mistral' % name)
            say('!! %s needs Mistral, which this tree cannot start' % name)
            return None, None
        say('\n== stack %s (%s)%s' % (
            name, origin,
            ', servers: %s' % ', '.join(servers) if servers else ''))
        if params:
            say('   parameters: %s' % ', '.join(
                '%s=%s' % item for item in sorted(params.items())))
        created = self.hc.stacks.create(stack_name=name, template=text,
                                        parameters=params)
        stack_id = created['stack']['id']
        for server in servers:
            workdir = os.path.join(self.workdir, 'servers',
                                   '%s-%s' % (name, server))
            self.agents.append(deployed_server.DeployedServerAgent(
                workdir, self.hc, stack_id, server).start())
        seen = set()
        self.deployed.append((name, stack_id, seen))
        if self._wait(stack_id, 'CREATE', seen):
            self.print_outputs(stack_id)
        return stack_id, seen

    def params_for(self, path, journal):
        """What each example needs from the demo's environment."""
        with open(path) as f:
            wanted = (yaml.safe_load(f) or {}).get('parameters') or {}
        params = {}
        if 'journal' in wanted:
            params['journal'] = journal
        if 'store' in wanted:
            params['store'] = self.thing_store().url
        if 'server' in wanted:
            params['server'] = self.server_for(path)
        return params

    def thing_store(self):
        """The HTTP service the ExternalResource workflows manage things in,
        the workflows registered in Mistral as a user would."""
        if self.store is None:
            self.store = thing_store.ThingStore(
                os.path.join(self.workdir, 'thing-store')).start()
            with open(WORKFLOWS) as f:
                self.cloud.mistral.client().workflows.create(f.read())
            say('\n== thing store %s; workflows of examples/%s registered '
                'in Mistral' % (self.store.url, os.path.basename(WORKFLOWS)))
        return self.store

    def server_for(self, path):
        """A DeployedServer in a stack of its own, its agent running."""
        name = '%s-server' % os.path.splitext(os.path.basename(path))[0]
        stack_id, _ = self.deploy_text(name, 'the demo\'s server stack',
                                       deployed_server.SERVER_STACK, {})
        if stack_id is None:
            return None
        return {o['output_key']: o.get('output_value') for o in
                self.hc.stacks.get(stack_id).outputs or []}['id']

    def print_things(self):
        if self.store is not None:
            things = self.store.things()
            say('   things in the store: %s' % (json.dumps(things,
                                                          sort_keys=True)
                                                if things else 'none'))

    def print_outputs(self, stack_id):
        for out in self.hc.stacks.get(stack_id).outputs or []:
            say('   output %s = %s' % (out['output_key'],
                                       json.dumps(out.get('output_value'))))

    def lifecycle(self, stack_id, seen, params, journal):
        path = os.path.join(EXAMPLES, 'demo.yaml')
        with open(path) as f:
            text = f.read()
        say('\n-- update: http_port 8080 -> 9090')
        self.hc.stacks.update(stack_id, template=text,
                              parameters=dict(params, http_port=9090))
        if self._wait(stack_id, 'UPDATE', seen):
            self.print_outputs(stack_id)
        for action in ('SUSPEND', 'RESUME'):
            say('\n-- %s' % action.lower())
            getattr(self.hc.actions, action.lower())(stack_id)
            self._wait(stack_id, action, seen)
        say('\n-- the journal the scripts wrote on the server (%s):' % journal)
        self.print_journal(journal)

    @staticmethod
    def print_journal(journal):
        if os.path.exists(journal):
            with open(journal) as f:
                for line in f:
                    say('   | ' + line.rstrip())

    def delete(self, name, stack_id, seen):
        say('\n== deleting %s' % name)
        self.hc.stacks.delete(stack_id)
        self._wait(stack_id, 'DELETE', seen)
        # The stack is gone from the API once deleted: show its last events.
        return True

    def keep(self):
        pids = self.cloud.processes() + [
            ('os-collect-config', a.process.pid) for a in self.agents]
        if self.store is not None:
            pids.append(('thing-store', self.store.process.pid))
        path = os.path.join(self.workdir, PIDS_FILE)
        with open(path, 'w') as f:
            json.dump(pids, f)
        say('\n== the cloud keeps running (%d processes, PIDs in %s)'
            % (len(pids), path))
        say('   point the openstack client or python-heatclient at it:')
        for key, value in sorted(self.cloud.client_env().items()):
            say('   export %s=%s' % (key, value))
        say('   openstack stack list    # needs python-openstackclient')
        say('   heat-engine log: %s' % os.path.join(
            self.workdir, 'cloud', 'heat', 'heat-engine.log'))
        say('   stop it with: bash tools/demo.sh --stop %s' % self.workdir)

    def down(self):
        for agent in self.agents:
            agent.stop()
        if self.store is not None:
            self.store.stop()
        if self.cloud is not None:
            self.cloud.stop()
        say('== every process stopped')


def stop_kept(workdir):
    with open(os.path.join(workdir, PIDS_FILE)) as f:
        pids = json.load(f)
    for name, pid in pids:
        try:
            os.killpg(pid, signal.SIGTERM)  # each leads its own session
            say('stopping %s (pid %s)' % (name, pid))
        except ProcessLookupError:
            pass
    deadline = time.time() + 60
    for name, pid in pids:
        while time.time() < deadline:
            try:
                os.killpg(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.2)
        else:
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    os.remove(os.path.join(workdir, PIDS_FILE))
    say('stopped')
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog='demo', description=__doc__.split(
        '\n\n')[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--keep', action='store_true',
                        help='leave the cloud and the stacks running')
    parser.add_argument('--stop', metavar='DIR',
                        help='stop the cloud a --keep run left in DIR')
    parser.add_argument('--workdir', help='where logs and data go '
                        '(default: a new temporary directory)')
    args = parser.parse_args(argv)
    if args.stop:
        return stop_kept(args.stop)

    workdir = args.workdir or tempfile.mkdtemp(prefix='heat-lifecycle-demo-')
    demo = Demo(workdir)
    try:
        demo.up()
        journal = os.path.join(workdir, 'servers', 'demo-journal')
        paths = sorted(glob.glob(os.path.join(EXAMPLES, '*.yaml')),
                       key=lambda p: os.path.basename(p) != 'demo.yaml')
        for path in paths:
            if path == WORKFLOWS:
                continue  # Mistral's, not Heat's: registered with the store
            params = demo.params_for(path, journal)
            stack_id, seen = demo.deploy(path, params)
            if stack_id is None:
                continue
            if os.path.basename(path) == 'demo.yaml':
                demo.lifecycle(stack_id, seen, params, journal)
            if 'store' in params:
                demo.print_things()
        if not args.keep:
            for name, stack_id, seen in reversed(demo.deployed):
                demo.delete(name, stack_id, seen)
            say('\n-- the journal after delete:')
            demo.print_journal(journal)
            demo.print_things()
    except KeyboardInterrupt:
        demo.failures.append('interrupted')
    finally:
        if args.keep and demo.cloud is not None and demo.cloud.heat:
            demo.keep()
        else:
            demo.down()
    if demo.failures:
        say('\n== %d problem(s):' % len(demo.failures))
        for failure in demo.failures:
            say('   - %s' % failure)
        return 1
    say('\n== demo completed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
