// pointsworth report pages: sortable and filterable tables, tooltips on hover and focus, the
// charts drawn from the page's embedded data, and the unit view. No library, no network: the
// page must work from a file, a CI artifact or a mail attachment.
(function () {
  'use strict';
  var NS = 'http://www.w3.org/2000/svg';
  var dataEl = document.getElementById('data');
  var DATA = dataEl ? JSON.parse(dataEl.textContent) : null;
  var tip = document.getElementById('tip');

  // ---- numbers, as the tables print them --------------------------------------------------
  function fixed(x, d) { return (Math.round(x * Math.pow(10, d)) / Math.pow(10, d)).toFixed(d); }
  function pct(x) { return fixed(100 * x, 1) + '%'; }
  function pctCI(e) {
    if (e[1] === e[2]) return pct(e[0]) + ' (exact)';
    return pct(e[0]) + ' [' + fixed(100 * e[1], 1) + ', ' + fixed(100 * e[2], 1) + ']';
  }
  function signed(x) { return (x >= 0 ? '+' : '') + fixed(x, 2); }
  function logOddsCI(e) { return signed(e[0]) + ' [' + signed(e[1]) + ', ' + signed(e[2]) + ']'; }
  function thousands(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ','); }
  function cost(c) { return Number.isInteger(c) ? String(c) : String(Math.round(c * 100) / 100); }
  function price(p) {
    if (!p) return '—';
    return fixed(p.value, 1) + (p.interval ? ' [' + fixed(p.interval[0], 1) + ', ' + fixed(p.interval[1], 1) + ']' : ' [unbounded]');
  }
  function unitName(id) {
    var u = DATA && DATA.units.find(function (u) { return u.id === id; });
    return u ? u.name : id;
  }

  // ---- tooltips ---------------------------------------------------------------------------
  function showTip(target) {
    var text = target.getAttribute('data-tip');
    if (!tip || !text) return;
    tip.textContent = text;
    tip.hidden = false;
    var r = target.getBoundingClientRect();
    var x = Math.min(r.left, window.innerWidth - tip.offsetWidth - 8);
    var y = r.bottom + 6;
    if (y + tip.offsetHeight > window.innerHeight) y = r.top - tip.offsetHeight - 6;
    tip.style.left = Math.max(4, x) + 'px';
    tip.style.top = Math.max(4, y) + 'px';
  }
  function hideTip() { if (tip) tip.hidden = true; }
  function bindTips(root) {
    root.querySelectorAll('[data-tip]').forEach(function (n) {
      if (n.dataset.tipBound) return;
      n.dataset.tipBound = '1';
      n.addEventListener('mouseenter', function () { showTip(n); });
      n.addEventListener('mouseleave', hideTip);
      n.addEventListener('focus', function () { showTip(n); });
      n.addEventListener('blur', hideTip);
    });
  }

  // ---- sortable tables --------------------------------------------------------------------
  function cellKey(cell, numeric) {
    if (!cell) return numeric ? -Infinity : '';
    var raw = cell.hasAttribute('data-sort') ? cell.getAttribute('data-sort') : cell.textContent.trim();
    if (!numeric) return raw.toLowerCase();
    var x = parseFloat(raw.replace('\u2212', '-'));
    return isNaN(x) ? -Infinity : x;
  }
  function makeSortable(table) {
    var heads = table.tHead ? table.tHead.rows[0].cells : [];
    Array.prototype.forEach.call(heads, function (th, col) {
      if (th.hasAttribute('data-nosort')) return;
      var b = document.createElement('button');
      b.type = 'button';
      b.className = 'sort';
      while (th.firstChild) b.appendChild(th.firstChild);
      th.appendChild(b);
      th.setAttribute('aria-sort', 'none');
      b.addEventListener('click', function () {
        var body0 = table.tBodies[0];
        var numeric = th.getAttribute('data-type') === 'num' || (!th.hasAttribute('data-type') &&
          Array.prototype.every.call(body0.rows, function (r) {
            var c = r.cells[col];
            var t = c ? (c.getAttribute('data-sort') || c.textContent).trim() : '';
            return t === '' || t === '—' || /^[+\u2212-]?\d/.test(t);
          }));
        var asc = th.getAttribute('aria-sort') !== 'ascending';
        Array.prototype.forEach.call(heads, function (h) { if (h.hasAttribute('aria-sort')) h.setAttribute('aria-sort', 'none'); });
        th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (r1, r2) {
          var a = cellKey(r1.cells[col], numeric), c = cellKey(r2.cells[col], numeric);
          var d = a < c ? -1 : a > c ? 1 : 0;
          return asc ? d : -d;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  }

  // ---- filters ----------------------------------------------------------------------------
  function applyFilter() {
    var q = (document.getElementById('filter') || {}).value || '';
    var v = (document.getElementById('verdict-filter') || {}).value || '';
    q = q.trim().toLowerCase();
    document.querySelectorAll('table.filterable tbody tr').forEach(function (tr) {
      var okText = !q || tr.textContent.toLowerCase().indexOf(q) >= 0;
      var okVerdict = !v || tr.getAttribute('data-verdict') === v;
      tr.hidden = !(okText && okVerdict);
    });
    var shown = document.querySelectorAll('#verdict-table tbody tr:not([hidden])').length;
    var status = document.getElementById('filter-status');
    if (status) status.textContent = shown + ' shown';
  }

  // ---- SVG helpers ------------------------------------------------------------------------
  function el(name, attrs, parent, text) {
    var n = document.createElementNS(NS, name);
    for (var k in attrs) if (attrs[k] !== undefined && attrs[k] !== null) n.setAttribute(k, attrs[k]);
    if (text !== undefined) n.textContent = text;
    if (parent) parent.appendChild(n);
    return n;
  }
  function scale(d0, d1, r0, r1) {
    return function (x) { return d1 === d0 ? (r0 + r1) / 2 : r0 + (x - d0) / (d1 - d0) * (r1 - r0); };
  }
  function niceTicks(lo, hi, n) {
    var span = hi - lo;
    if (!(span > 0)) return [lo];
    var step = Math.pow(10, Math.floor(Math.log10(span / n)));
    [1, 2, 2.5, 5, 10].some(function (m) { if (span / (m * step) <= n) { step = m * step; return true; } return false; });
    var out = [];
    for (var t = Math.ceil(lo / step) * step; t <= hi + 1e-9; t += step) out.push(Math.round(t / step) * step);
    return out;
  }
  function svgRoot(host, w, h, label) {
    host.textContent = '';
    var svg = el('svg', { viewBox: '0 0 ' + w + ' ' + h, role: 'img', 'aria-label': label }, host);
    el('title', {}, svg, label);
    return svg;
  }
  function hot(node, tipText, unit) {
    node.setAttribute('class', (node.getAttribute('class') || '') + ' hot');
    node.setAttribute('tabindex', '0');
    node.setAttribute('data-tip', tipText);
    node.setAttribute('aria-label', tipText);
    if (unit) {
      node.setAttribute('role', 'button');
      node.addEventListener('click', function () { openUnit(unit); });
      node.addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); openUnit(unit); } });
    }
    return node;
  }
  var SHAPES = ['circle', 'diamond', 'square', 'triangle', 'triangle-down'];
  function marker(g, shape, x, y, r, cls) {
    var pts;
    if (shape === 'circle') return el('circle', { cx: x, cy: y, r: r, 'class': cls }, g);
    if (shape === 'square') return el('rect', { x: x - r, y: y - r, width: 2 * r, height: 2 * r, 'class': cls }, g);
    if (shape === 'diamond') pts = [[x, y - r - 1], [x + r + 1, y], [x, y + r + 1], [x - r - 1, y]];
    else if (shape === 'triangle') pts = [[x, y - r - 1], [x + r + 1, y + r], [x - r - 1, y + r]];
    else pts = [[x, y + r + 1], [x + r + 1, y - r], [x - r - 1, y - r]];
    return el('polygon', { points: pts.map(function (p) { return p.join(','); }).join(' '), 'class': cls }, g);
  }
  function whisker(g, x1, y1, x2, y2, vertical) {
    el('line', { x1: x1, y1: y1, x2: x2, y2: y2, 'class': 'whisker' }, g);
    var c = 4;
    if (vertical) {
      el('line', { x1: x1 - c, y1: y1, x2: x1 + c, y2: y1, 'class': 'whisker' }, g);
      el('line', { x1: x2 - c, y1: y2, x2: x2 + c, y2: y2, 'class': 'whisker' }, g);
    } else {
      el('line', { x1: x1, y1: y1 - c, x2: x1, y2: y1 + c, 'class': 'whisker' }, g);
      el('line', { x1: x2, y1: y2 - c, x2: x2, y2: y2 + c, 'class': 'whisker' }, g);
    }
  }
  function xAxis(g, sx, ticks, y, fmt, label, x0, x1) {
    ticks.forEach(function (t) {
      el('line', { x1: sx(t), y1: 10, x2: sx(t), y2: y, 'class': 'gridline' }, g);
      el('text', { x: sx(t), y: y + 16, 'text-anchor': 'middle' }, g, fmt(t));
    });
    el('text', { x: (x0 + x1) / 2, y: y + 36, 'text-anchor': 'middle', 'class': 'muted' }, g, label);
  }
  function yAxis(g, sy, ticks, x, fmt, label, y0, y1, w) {
    ticks.forEach(function (t) {
      el('line', { x1: x, y1: sy(t), x2: w, y2: sy(t), 'class': 'gridline' }, g);
      el('text', { x: x - 6, y: sy(t) + 4, 'text-anchor': 'end' }, g, fmt(t));
    });
    el('text', { x: 14, y: (y0 + y1) / 2, 'text-anchor': 'middle', 'class': 'muted', transform: 'rotate(-90 14 ' + (y0 + y1) / 2 + ')' }, g, label);
  }
  /** Places labels (sorted by y) so none overlaps the one above: returns their y. */
  function spread(ys, gap, lo, hi) {
    var order = ys.map(function (y, i) { return [y, i]; }).sort(function (a, b) { return a[0] - b[0]; });
    var out = ys.slice(), last = -Infinity;
    order.forEach(function (p) { var y = Math.max(p[0], last + gap); out[p[1]] = y; last = y; });
    var over = last - hi;
    if (over > 0) order.slice().reverse().forEach(function (p) { out[p[1]] = Math.max(lo, out[p[1]] - over); });
    return out;
  }

  /** Draws `labels` ({x, y, text, cls}) each at the first spot (right of its point, then left,
      then ever further up and down) inside `area` [x0, y0, x1, y1] that overlaps no label placed
      before it and no box of `taken`; a label moved off its point gets a thin leader line. */
  function placeLabels(svg, labels, area, taken) {
    var placed = (taken || []).slice(), h = 13;
    labels.forEach(function (l) {
      var w = l.text.length * 6.4 + 2, cands = [];
      for (var k = 0; k < 12; k++) {
        var dy = (k % 2 ? 1 : -1) * Math.ceil(k / 2) * (h + 1);
        cands.push([l.x + 8, l.y + 4 + dy], [l.x - 8 - w, l.y + 4 + dy]);
      }
      var box = function (c) { return [c[0], c[1] - h + 3, c[0] + w, c[1] + 3]; };
      var free = function (c) {
        var b = box(c);
        return b[0] >= area[0] && b[2] <= area[2] && b[1] >= area[1] && b[3] <= area[3] &&
          !placed.some(function (p) { return b[0] < p[2] && p[0] < b[2] && b[1] < p[3] && p[1] < b[3]; });
      };
      var pick = cands.find(free) || cands[0];
      placed.push(box(pick));
      if (Math.abs(pick[1] - (l.y + 4)) > 2) {
        el('line', { x1: l.x, y1: l.y, x2: pick[0] < l.x ? pick[0] + w : pick[0], y2: pick[1] - 4, 'class': 'gridline' }, svg);
      }
      el('text', { x: pick[0], y: pick[1], 'class': l.cls }, svg, l.text);
    });
  }

  // ---- charts of the page -----------------------------------------------------------------
  function callOf(e, even) { return e[1] > even ? 'too-cheap' : e[2] < even ? 'too-expensive' : 'fair'; }
  var CALL_WORD = { 'too-cheap': 'too cheap', 'fair': 'fair', 'too-expensive': 'too expensive' };

  function drawEfficiency(host) {
    var rows = DATA.efficiency;
    var w = 700, rowH = 26, top = 16, left = 170, right = 150, h = top + rowH * rows.length + 50;
    var svg = svgRoot(host, w, h, host.getAttribute('data-label'));
    var sx = scale(0, 1, left, w - right);
    xAxis(svg, sx, [0, .1, .2, .3, .4, .5, .6, .7, .8, .9, 1], top + rowH * rows.length, function (t) { return Math.round(t * 100) + '%'; }, 'points efficiency: mean score against the field (50% = worth its cost)', left, w - right);
    el('line', { x1: sx(.5), y1: top - 6, x2: sx(.5), y2: top + rowH * rows.length, 'class': 'even' }, svg);
    rows.forEach(function (r, i) {
      var y = top + i * rowH + rowH / 2, e = [r.v, r.lo, r.hi], c = callOf(e, .5);
      var g = el('g', {}, svg);
      el('text', { x: left - 8, y: y + 4, 'text-anchor': 'end' }, g, r.name + ' (' + cost(r.cost) + ')');
      var bar = el('rect', { x: sx(0), y: y - 8, width: Math.max(1, sx(r.v) - sx(0)), height: 16, 'class': 'pt c-' + c }, g);
      whisker(g, sx(r.lo), y, sx(r.hi), y, false);
      el('text', { x: w - right + 8, y: y + 4 }, g, pctCI(e));
      hot(bar, r.name + ': efficiency ' + pctCI(e) + ', ' + CALL_WORD[c] + ' by duels', r.id);
    });
  }

  function drawFairCosts(host) {
    var f = DATA.fair, units = DATA.units;
    var pts = units.map(function (u) { return { u: u, r: f.rows[u.id] }; }).filter(function (p) { return p.r; });
    var vals = [];
    pts.forEach(function (p) {
      vals.push(p.u.cost);
      if (p.r.fair) vals.push(p.r.fair[1], p.r.fair[2]);
      if (p.r.lanchester > 0) vals.push(p.r.lanchester);
    });
    vals = vals.filter(function (x) { return x > 0 && isFinite(x); });
    var lo = Math.min.apply(null, vals) / 1.25, hi = Math.max.apply(null, vals) * 1.25;
    var w = 700, h = 520, left = 60, right = 16, top = 14, bottom = 60;
    var svg = svgRoot(host, w, h, host.getAttribute('data-label'));
    var L = function (x) { return Math.log(x); };
    var sx = scale(L(lo), L(hi), left, w - right), sy = scale(L(lo), L(hi), h - bottom, top);
    var keys = [1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500, 700, 1000].filter(function (k) { return k >= lo && k <= hi; });
    keys.forEach(function (k) {
      el('line', { x1: sx(L(k)), y1: top, x2: sx(L(k)), y2: h - bottom, 'class': 'gridline' }, svg);
      el('line', { x1: left, y1: sy(L(k)), x2: w - right, y2: sy(L(k)), 'class': 'gridline' }, svg);
      el('text', { x: sx(L(k)), y: h - bottom + 16, 'text-anchor': 'middle' }, svg, String(k));
      el('text', { x: left - 6, y: sy(L(k)) + 4, 'text-anchor': 'end' }, svg, String(k));
    });
    el('text', { x: (left + w - right) / 2, y: h - 18, 'text-anchor': 'middle', 'class': 'muted' }, svg, 'current cost (points, log scale)');
    el('text', { x: 14, y: (top + h - bottom) / 2, 'text-anchor': 'middle', 'class': 'muted', transform: 'rotate(-90 14 ' + (top + h - bottom) / 2 + ')' }, svg, 'fair cost by duels (points, log scale), 95% interval');
    el('line', { x1: sx(L(lo)), y1: sy(L(lo)), x2: sx(L(hi)), y2: sy(L(hi)), 'class': 'even' }, svg);
    var labels = [];
    pts.forEach(function (p) {
      var x = sx(L(p.u.cost));
      if (p.r.lanchester > 0) {
        var d = marker(svg, 'diamond', x, sy(L(p.r.lanchester)), 5, 'lanchester');
        hot(d, p.u.name + ': Lanchester estimate ' + fixed(p.r.lanchester, 1) + ' points (analytic reference, no interval)', p.u.id);
        labels.push({ x: x, y: sy(L(p.r.lanchester)), text: 'L ' + p.u.name, cls: 'muted' });
      }
      if (!p.r.fair) return;
      var e = p.r.fair, c = e[1] > p.u.cost ? 'too-cheap' : e[2] < p.u.cost ? 'too-expensive' : 'fair';
      whisker(svg, x, sy(L(Math.max(e[1], lo))), x, sy(L(Math.min(e[2], hi))), true);
      var dot = marker(svg, 'circle', x, sy(L(e[0])), 5.5, 'pt c-' + c);
      hot(dot, p.u.name + ': cost ' + cost(p.u.cost) + ', fair cost ' + fixed(e[0], 1) + ' [' + fixed(e[1], 1) + ', ' + fixed(e[2], 1) + '] by duels: ' + CALL_WORD[c], p.u.id);
      labels.push({ x: x, y: sy(L(e[0])), text: p.u.name, cls: '' });
    });
    // Unit labels first, then the Lanchester diamonds' ("L Mortar"), clear of every marker.
    var marks = labels.map(function (l) { return [l.x - 6, l.y - 6, l.x + 6, l.y + 6]; });
    labels.sort(function (a, b) { return (a.cls === 'muted') - (b.cls === 'muted'); });
    placeLabels(svg, labels, [left, top, w - right, h - bottom], marks);
  }

  function drawValue(host) {
    var v = DATA.value, items = v.items, games = v.games;
    var all = [0];
    items.forEach(function (it) { it.per_game.forEach(function (e) { if (e) all.push(e[1], e[2]); }); });
    var lo = Math.min.apply(null, all), hi = Math.max.apply(null, all);
    var pad = (hi - lo) * 0.05; lo -= pad; hi += pad;
    var rowH = 14 + 10 * games.length, w = 880, left = 230, right = 24, top = 30, h = top + rowH * items.length + 56;
    var svg = svgRoot(host, w, h, host.getAttribute('data-label'));
    var sx = scale(lo, hi, left, w - right);
    xAxis(svg, sx, niceTicks(lo, hi, 8), top + rowH * items.length, function (t) { return t === 0 ? '0' : signed(t); }, 'win log-odds per 100 points − field mean (0 = worth its cost, above: too cheap)', left, w - right);
    el('line', { x1: sx(0), y1: top - 4, x2: sx(0), y2: top + rowH * items.length, 'class': 'even' }, svg);
    games.forEach(function (gname, k) {
      marker(svg, SHAPES[k % SHAPES.length], left + 8 + 150 * k, 12, 5, 'pt key');
      el('text', { x: left + 20 + 150 * k, y: 16 }, svg, gname);
    });
    items.forEach(function (it, i) {
      var y0 = top + i * rowH;
      el('text', { x: left - 8, y: y0 + rowH / 2 + 4, 'text-anchor': 'end' }, svg, it.name + (it.item === 'upgrade' ? ' (upgrade)' : '') + ', ' + cost(it.cost));
      it.per_game.forEach(function (e, k) {
        if (!e) return;
        var y = y0 + 10 + 10 * k, c = callOf(e, 0);
        whisker(svg, sx(e[1]), y, sx(e[2]), y, false);
        var m = marker(svg, SHAPES[k % SHAPES.length], sx(e[0]), y, 4.5, 'pt c-' + c);
        var unit = DATA.units.find(function (u) { return u.name === it.name; });
        hot(m, it.name + ' in ' + games[k] + ': ' + logOddsCI(e) + ', ' + CALL_WORD[c], unit ? unit.id : null);
      });
    });
  }

  function drawSweep(host, only) {
    var s = DATA.sweep, ids = only ? [only] : Object.keys(s.eff);
    var w = only ? 560 : 880, h = only ? 300 : 480, left = 56, right = only ? 20 : 190, top = 14, bottom = 52;
    var svg = svgRoot(host, w, h, host.getAttribute('data-label') || ('Efficiency of ' + unitName(only) + ' against the start distance'));
    var d0 = Math.min.apply(null, s.distances.concat([s.main])), d1 = Math.max.apply(null, s.distances.concat([s.main]));
    var sx = scale(d0, d1, left, w - right), sy = scale(0, 1, h - bottom, top);
    xAxis(svg, sx, s.distances, h - bottom, function (t) { return String(t); }, 'start distance (' + s.unit + ')', left, w - right);
    yAxis(svg, sy, [0, .25, .5, .75, 1], left, function (t) { return Math.round(t * 100) + '%'; }, 'efficiency', top, h - bottom, w - right);
    el('line', { x1: left, y1: sy(.5), x2: w - right, y2: sy(.5), 'class': 'even' }, svg);
    el('line', { x1: sx(s.main), y1: top, x2: sx(s.main), y2: h - bottom, 'class': 'even', 'stroke-dasharray': '2 4' }, svg);
    var nearRight = sx(s.main) > w - right - 100;
    el('text', { x: sx(s.main) + (nearRight ? -4 : 4), y: top + 10, 'class': 'muted', 'text-anchor': nearRight ? 'end' : 'start' }, svg, 'report: ' + s.main + ' ' + s.unit);
    var ends = [];
    ids.forEach(function (id) {
      var est = s.eff[id];
      var g = el('g', { 'class': 'series' }, svg);
      var path = est.map(function (e, k) { return (k ? 'L' : 'M') + sx(s.distances[k]) + ' ' + sy(e[0]); }).join(' ');
      var line = el('path', { d: path, 'class': only ? 'line hi' : 'line' }, g);
      est.forEach(function (e, k) {
        if (only) whisker(g, sx(s.distances[k]), sy(e[1]), sx(s.distances[k]), sy(e[2]), true);
        var m = marker(g, 'circle', sx(s.distances[k]), sy(e[0]), only ? 4 : 3, 'pt c-' + callOf(e, .5));
        hot(m, unitName(id) + ' at ' + s.distances[k] + ' ' + s.unit + ': ' + pctCI(e) + ', ' + CALL_WORD[callOf(e, .5)], only ? null : id);
        m.addEventListener('mouseenter', function () { line.setAttribute('class', 'line hi'); });
        m.addEventListener('mouseleave', function () { line.setAttribute('class', only ? 'line hi' : 'line'); });
        m.addEventListener('focus', function () { line.setAttribute('class', 'line hi'); });
        m.addEventListener('blur', function () { line.setAttribute('class', only ? 'line hi' : 'line'); });
      });
      var last = est[est.length - 1];
      ends.push({ id: id, y: sy(last[0]), line: line });
    });
    if (!only) {
      var ys = spread(ends.map(function (e) { return e.y; }), 13, top + 6, h - bottom);
      ends.forEach(function (e, i) {
        var t = el('text', { x: w - right + 8, y: ys[i] + 4 }, svg, unitName(e.id));
        el('line', { x1: w - right, y1: e.y, x2: w - right + 6, y2: ys[i], 'class': 'gridline' }, svg);
        t.addEventListener('mouseenter', function () { e.line.setAttribute('class', 'line hi'); });
        t.addEventListener('mouseleave', function () { e.line.setAttribute('class', 'line'); });
      });
    }
  }

  function drawFairCurve(host, id) {
    var r = DATA.fair && DATA.fair.rows[id], u = DATA.units.find(function (u) { return u.id === id; });
    if (!r || !r.search || !r.search.length) { host.textContent = 'No fair-cost search was recorded for this unit.'; return; }
    var z = 1.959964;
    var pts = r.search.map(function (p) { return { c: p[0], e: p[1], lo: Math.max(0, p[1] - z * p[2]), hi: Math.min(1, p[1] + z * p[2]) }; });
    var cs = pts.map(function (p) { return p.c; }).concat([u.cost]).concat(r.fair ? [r.fair[1], r.fair[2]] : []);
    var c0 = Math.min.apply(null, cs) * 0.9, c1 = Math.max.apply(null, cs) * 1.1;
    var w = 560, h = 300, left = 56, right = 20, top = 14, bottom = 52;
    var svg = svgRoot(host, w, h, 'Fair-cost curve of ' + u.name + ': efficiency at each price the search tried');
    var sx = scale(c0, c1, left, w - right), sy = scale(0, 1, h - bottom, top);
    xAxis(svg, sx, niceTicks(c0, c1, 7), h - bottom, cost, 'price tried (points), every other cost as listed', left, w - right);
    yAxis(svg, sy, [0, .25, .5, .75, 1], left, function (t) { return Math.round(t * 100) + '%'; }, 'efficiency', top, h - bottom, w - right);
    el('line', { x1: left, y1: sy(.5), x2: w - right, y2: sy(.5), 'class': 'even' }, svg);
    if (r.fair) {
      el('rect', { x: sx(r.fair[1]), y: top, width: Math.max(1, sx(r.fair[2]) - sx(r.fair[1])), height: h - bottom - top, fill: 'var(--fair)', opacity: 0.25 }, svg);
      el('text', { x: sx(r.fair[0]) + 4, y: top + 12 }, svg, 'fair ' + fixed(r.fair[0], 1));
    }
    el('line', { x1: sx(u.cost), y1: top, x2: sx(u.cost), y2: h - bottom, 'class': 'even', 'stroke-dasharray': '2 4' }, svg);
    el('text', { x: sx(u.cost) + 4, y: h - bottom - 6, 'class': 'muted' }, svg, 'cost ' + cost(u.cost));
    pts.sort(function (a, b) { return a.c - b.c; });
    el('path', { d: pts.map(function (p, k) { return (k ? 'L' : 'M') + sx(p.c) + ' ' + sy(p.e); }).join(' '), 'class': 'line hi' }, svg);
    pts.forEach(function (p) {
      whisker(svg, sx(p.c), sy(p.lo), sx(p.c), sy(p.hi), true);
      var e = [p.e, p.lo, p.hi];
      hot(marker(svg, 'circle', sx(p.c), sy(p.e), 4, 'pt c-' + callOf(e, .5)), u.name + ' at ' + cost(Math.round(p.c * 100) / 100) + ' points: ' + pctCI(e));
    });
  }

  function drawValueOne(host, name) {
    var v = DATA.value, it = v && v.items.find(function (i) { return i.name === name; });
    if (!it) { host.textContent = 'Not priced in a skirmish game.'; return; }
    var all = [0];
    it.per_game.forEach(function (e) { if (e) all.push(e[1], e[2]); });
    var lo = Math.min.apply(null, all), hi = Math.max.apply(null, all), pad = (hi - lo) * 0.08 || 0.5;
    lo -= pad; hi += pad;
    var w = 560, rowH = 30, left = 120, right = 170, top = 10, h = top + rowH * v.games.length + 50;
    var svg = svgRoot(host, w, h, 'Value in army of ' + name + ' per game');
    var sx = scale(lo, hi, left, w - right);
    xAxis(svg, sx, niceTicks(lo, hi, 5), top + rowH * v.games.length, function (t) { return t === 0 ? '0' : signed(t); }, 'log-odds per 100 points − field mean', left, w - right);
    el('line', { x1: sx(0), y1: top, x2: sx(0), y2: top + rowH * v.games.length, 'class': 'even' }, svg);
    v.games.forEach(function (g, k) {
      var y = top + k * rowH + rowH / 2, e = it.per_game[k];
      el('text', { x: left - 8, y: y + 4, 'text-anchor': 'end' }, svg, g);
      if (!e) return;
      whisker(svg, sx(e[1]), y, sx(e[2]), y, false);
      hot(marker(svg, SHAPES[k % SHAPES.length], sx(e[0]), y, 5, 'pt c-' + callOf(e, 0)), name + ' in ' + g + ': ' + logOddsCI(e));
      el('text', { x: w - right + 8, y: y + 4 }, svg, logOddsCI(e));
    });
  }

  // ---- the unit view ----------------------------------------------------------------------
  function h(tag, attrs, parent, text) {
    var n = document.createElement(tag);
    for (var k in attrs) n.setAttribute(k, attrs[k]);
    if (text !== undefined) n.textContent = text;
    if (parent) parent.appendChild(n);
    return n;
  }
  function matchRow(key, i, j) {
    var m = DATA.matrices.find(function (m) { return m.key === key; });
    if (!m) return null;
    var a = m.units.indexOf(i), b = m.units.indexOf(j);
    return a < 0 || b < 0 ? null : m.cells[a][b];
  }
  function cellText(c) {
    if (!c) return '—';
    return pctCI([c.v, c.lo, c.hi]) + (c.n ? ', ' + thousands(c.n) + ' trials' : '');
  }
  function openUnit(id) {
    var dlg = document.getElementById('unit-view');
    if (!dlg || !DATA) return;
    var v = DATA.verdicts[id], u = DATA.units.find(function (x) { return x.id === id; });
    if (!u) return;
    hideTip();
    dlg.querySelector('h2').textContent = u.name + ' (' + cost(u.cost) + ' points)';
    var c = dlg.querySelector('.content');
    c.textContent = '';
    if (v) {
      var p = h('p', { 'class': 'lead' }, c);
      var icon = { 'too-cheap': '▲ ', 'fair': '● ', 'too-expensive': '▼ ' }[v.verdict] || '◆ ';
      h('span', { 'class': 'badge v-' + v.verdict }, p, icon + v.label);
      p.appendChild(document.createTextNode(' suggested cost ' + (v.suggested_text || '—') + ' · ' + v.line));
      var t = h('table', {}, c);
      h('caption', {}, t, 'What each method says (95% intervals cover sampling only)');
      var hr = h('tr', {}, h('thead', {}, t));
      ['game', 'measure', 'call', 'fair price [95% CI]'].forEach(function (x) { h('th', { scope: 'col' }, hr, x); });
      var tb = h('tbody', {}, t);
      v.evidence.forEach(function (e) {
        var r = h('tr', {}, tb);
        h('td', {}, r, e.game);
        h('td', {}, r, e.scale === 'efficiency' ? 'efficiency ' + pctCI([e.v, e.lo, e.hi]) : 'value in army ' + logOddsCI([e.v, e.lo, e.hi]));
        h('td', {}, r, e.call.replace('-', ' '));
        h('td', {}, r, price(e.price));
      });
      if (v.lanchester != null) h('p', { 'class': 'note' }, c, 'Lanchester estimate (analytic reference, no interval, not counted): ' + fixed(v.lanchester, 1) + ' points.');
      if (v.play) h('p', { 'class': 'note' }, c, 'Play-quality bound (1v1, exact): the scripted tactic can be beaten by up to ' + fixed(100 * v.play.worst, 1) + ' score points in this unit\'s pairs (worst against ' + v.play.worst_against + ')' + (v.play.optimal_minus_scripted != null ? '; its 1v1 mean score under optimal play minus under the tactic: ' + (v.play.optimal_minus_scripted >= 0 ? '+' : '') + fixed(100 * v.play.optimal_minus_scripted, 1) + ' points.' : '.'));
    }
    var grid = h('div', { 'class': 'grid2' }, c);
    var f1 = h('figure', {}, grid);
    h('figcaption', {}, f1, 'Matchups: ' + u.name + ' (row) against each unit');
    var mt = h('table', { 'class': 'sortable', id: 'unit-matchups' }, f1);
    var mh = h('tr', {}, h('thead', {}, mt));
    [['opponent', ''], ['points-matched score [95% CI]', 'num'], [DATA.scripted ? '1v1 score, optimal play' : '1v1 score [95% CI]', 'num']].concat(DATA.scripted ? [['1v1, scripted tactic', 'num']] : []).forEach(function (x) {
      var th = h('th', { scope: 'col' }, mh, x[0]);
      if (x[1]) th.setAttribute('data-type', x[1]);
    });
    var mb = h('tbody', {}, mt);
    DATA.units.forEach(function (o) {
      var r = h('tr', {}, mb);
      h('th', { scope: 'row' }, r, o.name + (o.id === id ? ' (mirror)' : ''));
      var pm = matchRow('points', id, o.id), dm = matchRow('duel', id, o.id);
      h('td', { 'data-sort': pm ? pm.v : -1, 'class': 'num' }, r, cellText(pm));
      h('td', { 'data-sort': dm ? dm.v : -1, 'class': 'num' }, r, cellText(dm));
      if (DATA.scripted) {
        var a = DATA.scripted.units.indexOf(id), b = DATA.scripted.units.indexOf(o.id);
        var s = a >= 0 && b >= 0 ? DATA.scripted.score[a][b] : null;
        h('td', { 'data-sort': s == null ? -1 : s, 'class': 'num' }, r, s == null ? '—' : pct(s) + ' (exact)');
      }
    });
    makeSortable(mt);
    if (DATA.sweep && DATA.sweep.eff[id]) {
      var f2 = h('figure', {}, grid);
      h('figcaption', {}, f2, 'Efficiency against start distance');
      drawSweep(h('div', { 'class': 'chart' }, f2), id);
    }
    if (DATA.fair && DATA.fair.rows[id]) {
      var f3 = h('figure', {}, grid);
      h('figcaption', {}, f3, 'Fair-cost curve (the search\'s prices, 95% intervals)');
      drawFairCurve(h('div', { 'class': 'chart' }, f3), id);
    }
    if (DATA.value) {
      var f4 = h('figure', {}, grid);
      h('figcaption', {}, f4, 'Value in army per game');
      drawValueOne(h('div', { 'class': 'chart' }, f4), u.name);
    }
    bindTips(c);
    if (typeof dlg.showModal === 'function') { if (!dlg.open) dlg.showModal(); } else dlg.setAttribute('open', '');
    dlg.querySelector('button.close').focus();
    if (history.replaceState) history.replaceState(null, '', '#unit=' + encodeURIComponent(id));
  }
  function closeUnit() {
    var dlg = document.getElementById('unit-view');
    if (dlg && dlg.open) dlg.close();
    if (history.replaceState) history.replaceState(null, '', location.pathname + location.search);
  }

  // ---- heatmaps: one tab stop each, arrow keys move between cells --------------------------
  function roving(table) {
    var rows = Array.prototype.map.call(table.tBodies[0].rows, function (r) {
      return Array.prototype.filter.call(r.cells, function (c) { return c.hasAttribute('tabindex'); });
    });
    rows.forEach(function (r, i) { r.forEach(function (c, j) { c.tabIndex = i === 0 && j === 0 ? 0 : -1; }); });
    table.addEventListener('keydown', function (e) {
      var move = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
      if (!move) return;
      for (var i = 0; i < rows.length; i++) {
        var j = rows[i].indexOf(e.target);
        if (j < 0) continue;
        var r = rows[Math.max(0, Math.min(rows.length - 1, i + move[0]))];
        var next = r[Math.max(0, Math.min(r.length - 1, j + move[1]))];
        e.target.tabIndex = -1;
        next.tabIndex = 0;
        next.focus();
        e.preventDefault();
        return;
      }
    });
  }

  // ---- start ------------------------------------------------------------------------------
  function start() {
    document.querySelectorAll('table.sortable').forEach(makeSortable);
    document.querySelectorAll('table.heat').forEach(roving);
    ['filter', 'verdict-filter'].forEach(function (id) {
      var n = document.getElementById(id);
      if (n) n.addEventListener('input', applyFilter);
    });
    if (DATA) {
      var draw = { efficiency: drawEfficiency, 'fair-costs': drawFairCosts, value: drawValue, sweep: function (n) { drawSweep(n, null); } };
      document.querySelectorAll('.chart[data-chart]').forEach(function (n) {
        var f = draw[n.getAttribute('data-chart')];
        if (f) f(n);
      });
    }
    document.querySelectorAll('button.unit[data-unit]').forEach(function (b) {
      b.addEventListener('click', function () { openUnit(b.getAttribute('data-unit')); });
    });
    var dlg = document.getElementById('unit-view');
    if (dlg) {
      dlg.querySelector('button.close').addEventListener('click', closeUnit);
      dlg.addEventListener('close', hideTip);
      dlg.addEventListener('click', function (e) { if (e.target === dlg) closeUnit(); });
    }
    bindTips(document);
    document.querySelectorAll('a.open-warnings').forEach(function (a) {
      a.addEventListener('click', function () {
        var d = document.querySelector('details.section[id*="warnings"]');
        if (d) { d.open = true; setTimeout(function () { d.scrollIntoView(); }, 0); }
      });
    });
    window.addEventListener('scroll', hideTip, { passive: true });
    window.addEventListener('beforeprint', function () {
      document.querySelectorAll('details').forEach(function (d) { d.dataset.wasOpen = d.open ? '1' : ''; d.open = true; });
    });
    window.addEventListener('afterprint', function () {
      document.querySelectorAll('details').forEach(function (d) { d.open = d.dataset.wasOpen === '1'; });
    });
    var m = /^#unit=(.+)$/.exec(location.hash);
    if (m) openUnit(decodeURIComponent(m[1]));
    document.documentElement.setAttribute('data-ready', '1');
  }
  window.pointsworth = { openUnit: openUnit, closeUnit: closeUnit };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start); else start();
})();
