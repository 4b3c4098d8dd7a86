/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may
 * not use this file except in compliance with the License. You may obtain
 * a copy of the License at
 *
 *      http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
 * WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
 * License for the specific language governing permissions and limitations
 * under the License.
 */
/* The Lifecycle tab's rows refresh themselves while anything runs: a GET
 * of the tab's rows view (JSON with the rows' HTML) every few seconds,
 * with Horizon's jQuery, until the view says everything is final. While
 * the stack runs, and in the last answer, the cause section comes too,
 * replaced in place: what it waits for now, then how the stack ended. */
(function ($) {
  'use strict';
  var INTERVAL_MS = 5000;

  function poll($tab) {
    if ($tab.data('lifecyclePolling')) { return; }
    $tab.data('lifecyclePolling', true);
    var url = $tab.attr('data-refresh-url');
    function next() {
      if (!$.contains(document, $tab[0])) { return; }
      $.getJSON(url).done(function (found) {
        if (found.error) {
          setTimeout(next, INTERVAL_MS * 3);
          return;
        }
        $tab.find('.lifecycle-rows').html(found.rows);
        $tab.find('.lifecycle-stack-status').text(found.stack_status);
        if (found.cause !== undefined) {
          $tab.find('.lifecycle-cause-section').html(found.cause);
        }
        $tab.attr('data-final', found.final ? 'true' : 'false');
        if (!found.final) { setTimeout(next, INTERVAL_MS); }
      }).fail(function () { setTimeout(next, INTERVAL_MS * 3); });
    }
    setTimeout(next, INTERVAL_MS);
  }

  function start() {
    $('.lifecycle-tab[data-final="false"]').each(function () {
      poll($(this));
    });
  }

  $(start);
  // A tab that is not preloaded arrives by ajax when it is shown.
  $(document).on('shown.bs.tab ajaxComplete', start);
}(jQuery));
