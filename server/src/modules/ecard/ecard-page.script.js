// The e-card page's one script (served at /ecards/ecard.js; see ecard-page.ts): opening, turning over
// and closing the card, the first song on opening, the opening beacon (sent once the page has rendered
// in a visible browser tab; a preview has none) and the thank-you form. Plain JavaScript for every
// phone's browser, read by the server as it is.
(() => {
  const stage = document.querySelector('.stage');
  if (!stage) return;
  // What the page says, in its language (the page carries it as data: see ecard-page.ts).
  const data = document.getElementById('page-words');
  const words = data ? JSON.parse(data.textContent) : {};
  const say = (key, values = {}) => (words[key] || '').replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all));
  const beacon = document.body.dataset.opened;
  let reported = false;
  const report = () => {
    if (!beacon || reported || document.visibilityState !== 'visible') return;
    reported = true;
    // Two frames: the card has been painted before the opening is reported.
    requestAnimationFrame(() => requestAnimationFrame(() => {
      fetch(beacon, { method: 'POST', keepalive: true, credentials: 'omit' }).catch(() => { reported = false; });
    }));
  };
  report();
  document.addEventListener('visibilitychange', report);
  const form = document.querySelector('.thanks-form');
  if (form) {
    const message = form.elements.namedItem('message');
    const name = form.elements.namedItem('name');
    const count = form.querySelector('.thanks-count');
    const error = form.querySelector('.thanks-error');
    const button = form.querySelector('button');
    const done = document.querySelector('.thanks-done');
    const fail = (text) => { error.textContent = text; error.hidden = false; };
    message.addEventListener('input', () => { count.textContent = message.value.length + ' / 500'; });
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      error.hidden = true;
      if (!name.value.trim()) return fail(say('nameMissing'));
      if (!message.value.trim()) return fail(say('messageMissing'));
      button.disabled = true;
      try {
        const res = await fetch(form.getAttribute('action'), { method: 'POST', headers: { 'content-type': 'application/json', 'accept-language': document.documentElement.lang || 'en' }, credentials: 'omit', body: JSON.stringify({ name: name.value, message: message.value }) });
        if (res.ok) {
          form.hidden = true;
          done.hidden = false;
          return;
        }
        const body = await res.json().catch(() => null);
        fail((body && body.message) || say('sendFailed'));
      } catch {
        fail(say('offline'));
      }
      button.disabled = false;
    });
  }
  // A group card's inside is a row of pages (its signatures): the pager turns them and says where one
  // is, and the signatures are fitted to the pages in the card's real font.
  let onOpen = null;
  const pages = document.querySelector('.inside.pages');
  const pager = document.querySelector('.pager');
  if (pages && pager) {
    const at = pager.querySelector('.page-at');
    const total = pager.querySelector('.page-total');
    const [previous, next] = pager.querySelectorAll('[data-page]');
    const current = () => Math.round(pages.scrollLeft / Math.max(1, pages.clientWidth));
    const show = () => {
      const page = current();
      at.textContent = String(page + 1);
      total.textContent = String(pages.children.length);
      previous.disabled = page <= 0;
      next.disabled = page >= pages.children.length - 1;
    };
    // A signature its page cannot hold (below it, or in a column beyond it) moves to the start of the
    // next page (a new one after the last).
    const over = (page) => page.scrollHeight > page.clientHeight + 1 || page.scrollWidth > page.clientWidth + 1;
    const fit = () => {
      let moved = false;
      for (let page = pages.querySelector('.sig-page'); page; page = page.nextElementSibling) {
        while (page.children.length > 1 && over(page)) {
          let after = page.nextElementSibling;
          if (!after) {
            after = page.cloneNode(false);
            pages.append(after);
          }
          after.prepend(page.lastElementChild);
          moved = true;
        }
        // One signature longer than a page scrolls within it, and can be reached by keyboard.
        if (over(page)) page.tabIndex = 0;
      }
      if (!moved) return;
      const all = pages.children;
      for (let i = 1; i < all.length; i++) all[i].setAttribute('aria-label', say('pageOf', { page: i + 1, count: all.length }));
      show();
    };
    let queued = false;
    pages.addEventListener('scroll', () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => { queued = false; show(); });
    }, { passive: true });
    const smooth = !matchMedia('(prefers-reduced-motion: reduce)').matches;
    for (const button of [previous, next]) {
      button.addEventListener('click', () => {
        const page = Math.min(pages.children.length - 1, Math.max(0, current() + Number(button.dataset.page)));
        pages.scrollTo({ left: page * pages.clientWidth, behavior: smooth ? 'smooth' : 'auto' });
      });
    }
    // The pages are fitted when the card is first opened (a closed card shows none of them, and the
    // page's first paint stays light), again once its font has arrived, and after a resize.
    let fitted = false;
    const fitAll = () => {
      // Pages off screen are not laid out (content-visibility): measured, they are, for a moment.
      pages.classList.add('measuring');
      try {
        fit();
      } finally {
        pages.classList.remove('measuring');
      }
      fitted = true;
    };
    onOpen = () => {
      if (!fitted) fitAll();
    };
    document.fonts?.addEventListener('loadingdone', () => {
      if (fitted) requestAnimationFrame(fitAll);
    });
    let resized = 0;
    addEventListener('resize', () => {
      clearTimeout(resized);
      resized = setTimeout(() => fitted && fitAll(), 200);
    });
    show();
  }
  const song = document.querySelector('.songs audio');
  let played = false;
  const go = (state) => {
    if (state !== 'closed' && onOpen) onOpen();
    stage.dataset.state = state;
    if (state === 'open' && song && !played) {
      played = true;
      song.play().catch(() => {});
    }
  };
  document.querySelector('.cover')?.addEventListener('click', () => go('open'));
  // The songs' player: one plays at a time; its length shows once the browser has read it, before it plays.
  const time = (seconds) => {
    if (!Number.isFinite(seconds) || seconds < 0) return '0:00';
    const whole = Math.floor(seconds);
    return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
  };
  const players = [...document.querySelectorAll('[data-song]')];
  for (const player of players) {
    const audio = player.querySelector('audio');
    const button = player.querySelector('.song-play');
    const seek = player.querySelector('.song-seek');
    const shown = player.querySelector('.song-time');
    const title = player.querySelector('.song-title').textContent;
    audio.removeAttribute('controls');
    for (const part of [button, seek, shown]) part.hidden = false;
    const update = () => {
      const length = Number.isFinite(audio.duration) ? audio.duration : 0;
      seek.max = String(Math.floor(length));
      seek.value = String(Math.floor(audio.currentTime));
      seek.setAttribute('aria-valuetext', say('timeOf', { at: time(audio.currentTime), length: time(length) }));
      shown.textContent = `${time(audio.currentTime)} / ${time(length)}`;
    };
    const playing = () => {
      const on = !audio.paused;
      player.classList.toggle('playing', on);
      button.setAttribute('aria-label', say(on ? 'pause' : 'play', { title }));
    };
    for (const event of ['loadedmetadata', 'durationchange', 'timeupdate', 'seeked']) audio.addEventListener(event, update);
    for (const event of ['play', 'pause', 'ended']) audio.addEventListener(event, playing);
    audio.addEventListener('play', () => {
      for (const other of players) if (other !== player) other.querySelector('audio').pause();
    });
    button.addEventListener('click', () => (audio.paused ? audio.play().catch(() => {}) : audio.pause()));
    seek.addEventListener('input', () => {
      audio.currentTime = Number(seek.value);
      update();
    });
    update();
  }
  for (const button of document.querySelectorAll('[data-go]')) button.addEventListener('click', () => go(button.dataset.go));
})();
