// The signing page's one script (served at /sign/sign.js; see sign-page.ts): signs the card through
// the REST API, keeps the signature's edit token in this browser's storage (never in the address) so
// that the same browser can change or remove it until the deadline, and shows the deadline in the
// signer's own time. Plain JavaScript for every phone's browser, read by the server as it is.
(() => {
  const main = document.querySelector('main.sign[data-api]');
  if (!main) return;
  const api = main.dataset.api;
  const storageKey = 'artsong:signature:' + api.slice(api.lastIndexOf('/') + 1);
  const keyKey = storageKey + ':key';
  const open = main.dataset.status === 'open';
  const editable = main.dataset.editable !== undefined;
  const form = main.querySelector('.sign-form');
  const mine = main.querySelector('.mine');
  const names = main.querySelector('.names');
  const list = names.querySelector('ul');
  const counter = main.querySelector('.signed-count');
  const name = form.elements.namedItem('name');
  const message = form.elements.namedItem('message');
  const submit = form.querySelector('button[type="submit"]');
  const cancel = form.querySelector('.cancel');
  const count = form.querySelector('.count');
  const error = form.querySelector('.error');
  const mineError = mine.querySelector('.mine-error');
  const invite = new URLSearchParams(location.search).get('invite');
  // What the page says, in its language (the page carries it as data: see sign-page.ts).
  const data = document.getElementById('page-words');
  const words = data ? JSON.parse(data.textContent) : {};
  const say = (key) => words[key] || '';
  // The shop answers a refusal in the page's language.
  const speaks = { 'accept-language': document.documentElement.lang || 'en' };

  // The deadline in the signer's own time zone and language.
  const time = main.querySelector('time[datetime]');
  if (time) {
    try {
      time.textContent = new Date(time.getAttribute('datetime')).toLocaleString(document.documentElement.lang || undefined, { dateStyle: 'full', timeStyle: 'short' });
    } catch {}
  }

  const storage = (() => {
    try {
      return window.localStorage;
    } catch {
      return null;
    }
  })();
  const read = () => {
    try {
      const value = JSON.parse(storage.getItem(storageKey));
      return value && typeof value.id === 'number' && typeof value.editToken === 'string' ? value : null;
    } catch {
      return null;
    }
  };
  const write = (value) => {
    try {
      if (value) storage.setItem(storageKey, JSON.stringify(value));
      else storage.removeItem(storageKey);
    } catch {}
  };
  // One key per signature being sent: a double click or a retry of the same one is stored once.
  const attemptKey = () => {
    let key = null;
    try {
      key = sessionStorage.getItem(keyKey);
    } catch {}
    if (!key) {
      const bytes = new Uint8Array(16);
      crypto.getRandomValues(bytes);
      key = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
      try {
        sessionStorage.setItem(keyKey, key);
      } catch {}
    }
    return key;
  };
  const forgetKey = () => {
    try {
      sessionStorage.removeItem(keyKey);
    } catch {}
  };

  let stored = read();
  let editing = false;
  const onCard = (id) => Boolean(list.querySelector('li[data-id="' + id + '"]'));
  // A signature that is no longer on the card (its purchaser removed it) is forgotten.
  if (stored && !onCard(stored.id)) {
    stored = null;
    write(null);
  }

  const setCount = (delta) => {
    counter.textContent = String(Number(counter.textContent) + delta);
  };
  const listName = (id, text) => {
    let item = list.querySelector('li[data-id="' + id + '"]');
    if (!item) {
      item = document.createElement('li');
      item.dataset.id = String(id);
      list.append(item);
    }
    item.textContent = text;
    names.hidden = false;
  };
  const unlist = (id) => {
    list.querySelector('li[data-id="' + id + '"]')?.remove();
    names.hidden = !list.children.length;
  };
  const fail = (node, text) => {
    node.textContent = text;
    node.hidden = false;
  };
  const showCount = () => {
    count.textContent = message.value.length + ' / 500';
  };

  const render = () => {
    error.hidden = true;
    mineError.hidden = true;
    if (stored && !editing) {
      mine.hidden = false;
      mine.querySelector('.mine-message').textContent = stored.message;
      mine.querySelector('.mine-name').textContent = '— ' + stored.name;
      form.hidden = true;
    } else {
      mine.hidden = true;
      form.hidden = !(editing || open);
    }
    submit.textContent = say(editing ? 'save' : 'sign');
    cancel.hidden = !editing;
    showCount();
  };

  const answer = async (response) => {
    const body = await response.json().catch(() => null);
    return (body && body.message) || say('tryAgain');
  };

  message.addEventListener('input', showCount);
  cancel.addEventListener('click', () => {
    editing = false;
    render();
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.hidden = true;
    if (!name.value.trim()) return fail(error, say('nameMissing'));
    if (!message.value.trim()) return fail(error, say('messageMissing'));
    submit.disabled = true;
    const body = { name: name.value, message: message.value };
    try {
      if (editing && stored) {
        const response = await fetch(api + '/signatures/' + stored.id, { method: 'PUT', credentials: 'omit', headers: { ...speaks, 'content-type': 'application/json', 'x-edit-token': stored.editToken }, body: JSON.stringify(body) });
        if (response.ok) {
          const saved = await response.json();
          stored = { id: stored.id, editToken: stored.editToken, name: saved.name, message: saved.message };
          write(stored);
          listName(stored.id, saved.name);
          editing = false;
          render();
        } else if (response.status === 404) {
          unlist(stored.id);
          stored = null;
          write(null);
          editing = false;
          render();
          fail(error, say('gone'));
        } else fail(error, await answer(response));
      } else {
        const response = await fetch(api + '/signatures', { method: 'POST', credentials: 'omit', headers: { ...speaks, 'content-type': 'application/json', 'idempotency-key': attemptKey() }, body: JSON.stringify(invite ? { ...body, invite } : body) });
        if (response.ok) {
          const signed = await response.json();
          forgetKey();
          const fresh = !onCard(signed.id);
          stored = { id: signed.id, editToken: signed.edit_token, name: name.value.trim(), message: message.value.trim() };
          write(stored);
          listName(signed.id, stored.name);
          if (fresh) setCount(1);
          render();
        } else {
          // A refusal is final for these words: the next try is a new signature.
          if (response.status !== 429) forgetKey();
          fail(error, await answer(response));
        }
      }
    } catch {
      fail(error, say('offline'));
    }
    submit.disabled = false;
  });

  mine.addEventListener('click', async (event) => {
    const action = event.target.closest && event.target.closest('[data-action]')?.dataset.action;
    if (!action || !stored || !editable) return;
    mineError.hidden = true;
    if (action === 'edit') {
      editing = true;
      name.value = stored.name;
      message.value = stored.message;
      render();
      message.focus();
      return;
    }
    if (!window.confirm(say('confirmRemove'))) return;
    try {
      const response = await fetch(api + '/signatures/' + stored.id, { method: 'DELETE', credentials: 'omit', headers: { ...speaks, 'x-edit-token': stored.editToken } });
      if (response.ok || response.status === 404) {
        unlist(stored.id);
        if (response.ok) setCount(-1);
        stored = null;
        write(null);
        name.value = '';
        message.value = '';
        render();
      } else fail(mineError, await answer(response));
    } catch {
      fail(mineError, say('offline'));
    }
  });

  if (!editable) mine.querySelector('.mine-actions').hidden = true;
  render();
})();
