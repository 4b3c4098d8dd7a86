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
"""The tab's two views: its rows as JSON (refresh) and the action form."""

import logging

from django import http
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views import generic

from horizon import forms

from heat_lifecycle_dashboard import content
from heat_lifecycle_dashboard import forms as lifecycle_forms

LOG = logging.getLogger(__name__)


class RowsView(generic.View):
    """{'final', 'stack_status', 'rows'}: the rows' HTML for the poll.

    While the stack runs and once all is final, 'cause' too: the cause
    section's HTML.
    """

    def get(self, request, stack_id):
        try:
            found = content.refresh_context(request, stack_id)
        except Exception as exc:
            LOG.warning('Lifecycle rows of stack %s: %s', stack_id, exc)
            # The poll tries again later; the page keeps its rows.
            return http.JsonResponse({'error': str(exc), 'final': False})
        found['refused_text'] = content.REFUSED
        answer = {
            'final': found['final'],
            'stack_status': found['stack'].get('stack_status'),
            'rows': render_to_string(
                'heat_lifecycle_dashboard/_rows.html', found, request)}
        if 'cause' in found:
            answer['cause'] = render_to_string(
                'heat_lifecycle_dashboard/_cause.html', found, request)
        return http.JsonResponse(answer)


class RunActionView(forms.ModalFormView):
    form_class = lifecycle_forms.RunActionForm
    form_id = 'lifecycle_run_action'
    modal_id = 'lifecycle_run_action_modal'
    template_name = 'heat_lifecycle_dashboard/run_action.html'
    page_title = _("Run a day-two action")
    submit_label = _("Run")
    submit_url = 'horizon:project:lifecycle:run'

    def get_initial(self):
        return {'stack_id': self.kwargs['stack_id']}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context['submit_url'] = reverse(self.submit_url,
                                        args=[self.kwargs['stack_id']])
        return context

    def get_success_url(self):
        return reverse('horizon:project:stacks:detail',
                       args=[self.kwargs['stack_id']]) + content.TAB_QUERY
