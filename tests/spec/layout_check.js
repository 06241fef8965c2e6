// Runs in a page of the built HTML (tests/browser_pages.py): what a reader would trip over,
// as [kind, element, detail] triples. Only what is in the page's <article> is examined:
// the theme's sidebars are not ours. minScale: an SVG drawn smaller than that share of its
// natural width is too small to read.
(minScale) => {
  const found = [];
  const main = document.querySelector('article[role=main]') || document.querySelector('article');
  const name = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    const cls = typeof el.className === 'string' ? el.className.trim() : '';
    if (cls) s += '.' + cls.split(/\s+/).join('.');
    const section = el.closest('section[id]');
    return section ? s + ' in #' + section.id : s;
  };
  const root = document.scrollingElement;
  if (root.scrollWidth > window.innerWidth + 1) {
    found.push(['wider than the window', 'page',
      `${root.scrollWidth}px of content in a ${window.innerWidth}px window`]);
  }
  const column = main.getBoundingClientRect();
  const past = new Set();
  for (const el of main.querySelectorAll('*')) {
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    if (style.display === 'none' || (box.width === 0 && box.height === 0)) continue;
    if (style.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1) {
      found.push(['clipped', name(el),
        `${el.scrollWidth}px of content in a ${el.clientWidth}px box (scrolls or is cut)`]);
    }
    // inside a scroll box (reported above) or an element already reported: not again
    let covered = false;
    for (let up = el.parentElement; up && up !== main && !covered; up = up.parentElement) {
      covered = past.has(up) || getComputedStyle(up).overflowX !== 'visible';
    }
    // a negative right margin is a deliberate overhang (furo's headings hold their permalink)
    const right = box.right + Math.min(0, parseFloat(style.marginRight) || 0);
    if (!covered && right > column.right + 1) {
      past.add(el);
      found.push(['past the column', name(el),
        `right edge at ${Math.round(right)}px, the column ends at ${Math.round(column.right)}px`]);
    }
  }
  for (const img of main.querySelectorAll('img')) {
    if (!img.complete || img.naturalWidth === 0) {
      found.push(['image not loaded', name(img), img.getAttribute('src') || '']);
    } else if (/\.svg(\?|#|$)/.test(img.currentSrc)) {
      const scale = img.getBoundingClientRect().width / img.naturalWidth;
      if (scale < minScale) found.push(['svg shrunk', name(img),
        `drawn at ${Math.round(scale * 100)}% of its ${img.naturalWidth}px`]);
    }
  }
  for (const obj of main.querySelectorAll('object')) {
    const doc = obj.contentDocument;
    const svg = doc && doc.documentElement;
    if (!svg || svg.tagName.toLowerCase() !== 'svg') {
      found.push(['image not loaded', name(obj), obj.getAttribute('data') || '']);
      continue;
    }
    const natural = svg.width.baseVal.value;
    const scale = obj.getBoundingClientRect().width / natural;
    if (scale < minScale) found.push(['svg shrunk', name(obj),
      `drawn at ${Math.round(scale * 100)}% of its ${Math.round(natural)}px`]);
  }
  for (const svg of main.querySelectorAll('svg[width]')) {
    const natural = svg.width.baseVal.value;
    const scale = svg.getBoundingClientRect().width / natural;
    if (natural > 0 && scale < minScale) found.push(['svg shrunk', name(svg),
      `drawn at ${Math.round(scale * 100)}% of its ${Math.round(natural)}px`]);
  }
  return found;
}
