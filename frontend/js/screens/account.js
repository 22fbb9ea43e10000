/**
 * Account: register (a guest keeps its matches), log in on another device, log out, change
 * the password, delete the account, download every record at once. Guests keep playing
 * without any of this; an account is a username and password on top of the same identity.
 */

import * as api from '../api.js';
import * as session from '../session.js';
import { h, toast } from '../dom.js';
import { t } from '../i18n.js';
import { turnAlertsPanel } from '../widgets/player/turnAlerts.js';
import { lengthLimit } from '../widgets/page/limit.js';

function field(id, label, attrs) {
  const input = h(`input#${id}`, { name: id, ...attrs });
  return [h('label', { for: id }, label), input, attrs.type === 'text' && attrs.maxlength ? lengthLimit(input).node : null];
}

/**
 * Words for a refused account form. A 401 here is the password (or username) being wrong, not
 * an expired session (``wrongKey``: the form's own words for it); a 429 says when to try again.
 */
function refusal(err, wrongKey) {
  if (err instanceof api.ApiError && err.status === 401 && wrongKey) return t(wrongKey);
  return api.friendly(err);
}

function form(id, title, fields, submitLabel, onSubmit, wrongKey = null) {
  const error = h(`p#${id}-error.field-error`, { 'aria-live': 'polite' });
  const button = h(`button.btn.primary#${id}-submit`, { type: 'submit' }, submitLabel);
  const el = h(`form.start-form#${id}`, {
    onsubmit: async (e) => {
      e.preventDefault();
      error.textContent = '';
      button.disabled = true;
      try {
        await onSubmit(Object.fromEntries(new FormData(el).entries()));
      } catch (err) {
        error.textContent = refusal(err, wrongKey);
      } finally {
        button.disabled = false;
      }
    },
  }, h('h2', title), ...fields.flat(), error, button);
  return el;
}

export function mount(root, ctx) {
  const who = session.player();
  const signedIn = (res) => {
    session.save(res.token, res.account);
    toast(t('account.welcome', { name: res.account.username }), 'success');
    ctx.refreshHeader();
    ctx.go(ctx.query.get('next') || `#/player/${encodeURIComponent(res.account.id)}`);
  };
  const userAttrs = { type: 'text', autocomplete: 'username', maxlength: 20, required: true };
  const register = form('register', t('account.register'), [
    field('reg-username', t('account.username'), { ...userAttrs, name: 'username' }),
    field('reg-password', t('account.password'), { type: 'password', name: 'password',
      autocomplete: 'new-password', maxlength: 128, required: true }),
    h('p.help', who && !who.username ? t('account.keepGuest', { name: who.name }) : t('account.rules')),
  ], t('account.registerButton'), async (v) => signedIn(await api.post('/api/accounts', v)));
  const login = form('login', t('account.login'), [
    field('login-username', t('account.username'), { ...userAttrs, name: 'username' }),
    field('login-password', t('account.password'), { type: 'password', name: 'password',
      autocomplete: 'current-password', maxlength: 128, required: true }),
  ], t('account.loginButton'), async (v) => signedIn(await api.post('/api/accounts/login', v, { auth: false })),
  'account.wrongLogin');

  if (!who || !who.username) {
    root.appendChild(h('section.account', {},
      h('h1', t('account.title')),
      h('p.lead', t('account.lead')),
      h('div.account-grid', {}, h('div.panel', {}, register), h('div.panel', {}, login)),
      // A guest plays correspondence games too: their device can be alerted as well.
      who ? turnAlertsPanel() : null));
    return null;
  }

  const change = form('password', t('account.changePassword'), [
    field('cur-password', t('account.currentPassword'), { type: 'password', name: 'password',
      autocomplete: 'current-password', required: true }),
    field('new-password', t('account.newPassword'), { type: 'password', name: 'new_password',
      autocomplete: 'new-password', required: true }),
  ], t('account.changeButton'), async (v) => {
    await api.post('/api/accounts/password', v);
    toast(t('account.changed'), 'success');
  }, 'account.wrongPassword');
  const remove = form('delete', t('account.delete'), [
    h('p.help', t('account.deleteHelp')),
    field('del-password', t('account.password'), { type: 'password', name: 'password',
      autocomplete: 'current-password', required: true }),
  ], t('account.deleteButton'), async (v) => {
    if (!window.confirm(t('account.deleteConfirm'))) return;
    await api.post('/api/accounts/delete', v);
    session.forget();
    ctx.refreshHeader();
    toast(t('account.deleted'), 'success');
    ctx.go('#/start');
  }, 'account.wrongPassword');
  const download = h('button.btn.secondary#download-records', {
    type: 'button',
    onclick: async () => {
      const res = await fetch('/api/me/records.zip', { headers: { Authorization: `Bearer ${session.token()}` } });
      if (!res.ok) { toast(t('account.downloadFailed'), 'error'); return; }
      const url = URL.createObjectURL(await res.blob());
      const a = h('a', { href: url, download: 'carcassonne-records.zip' });
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 5000);
    },
  }, t('account.download'));
  root.appendChild(h('section.account', {},
    h('h1', t('account.signedInAs', { name: who.username })),
    h('div.row', {},
      h('a.btn.secondary', { href: `#/player/${encodeURIComponent(who.id)}` }, t('account.myProfile')),
      download,
      h('button.btn.secondary#logout', {
        type: 'button',
        onclick: async (e) => {
          e.currentTarget.disabled = true;
          // The server ends this device's session (its token, renewed or copied, stops working);
          // offline or refused, the device forgets the token all the same.
          try {
            await api.post('/api/accounts/logout');
          } catch {
            /* nothing more to end */
          }
          session.forget();
          ctx.refreshHeader();
          toast(t('account.loggedOut'), 'success');
          ctx.go('#/start');
        },
      }, t('account.logout')),
      h('button.btn.secondary#sign-out-everywhere', {
        type: 'button',
        title: t('account.signOutEverywhereHelp'),
        onclick: async () => {
          if (!window.confirm(t('account.signOutEverywhereConfirm'))) return;
          // The answer's X-Renewed-Token header keeps this device signed in (api.js).
          await api.post('/api/accounts/sign-out-everywhere');
          toast(t('account.signedOutEverywhere'), 'success');
        },
      }, t('account.signOutEverywhere'))),
    turnAlertsPanel(),
    h('div.account-grid', {}, h('div.panel', {}, change), h('div.panel', {}, remove))));
  return null;
}
