// The layout check of page-kit.ts's layoutProblems, run inside the page (plain JS: the test programs have no DOM types).
// One expression: a function of the longest page height allowed, answering the problems found, in words.
(limit) => {
  const problems = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth + 1) problems.push(`the page scrolls sideways: ${root.scrollWidth} px wide in ${root.clientWidth}`);
  if (root.scrollHeight > limit) problems.push(`the page is ${root.scrollHeight} px long`);
  const visible = (element) => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
};
  const describe = (element) => (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
  for (const row of document.querySelectorAll('main tr')) {
    const pinned = row.querySelector(':scope > .row-actions');
    if (!pinned || !visible(pinned)) continue;
    const box = pinned.getBoundingClientRect();
    for (const cell of row.querySelectorAll(':scope > td:not(.row-actions), :scope > th:not(.row-actions)')) {
      const other = cell.getBoundingClientRect();
      if (other.width > 0 && other.right > box.left + 1 && other.left < box.right - 1) {
        problems.push(`the actions cell covers "${describe(cell)}" in the row "${describe(row)}"`);
        break;
      }
    }
}
  for (const cell of document.querySelectorAll('main td, main th, main .mantine-Badge-root')) {
    if (!visible(cell)) continue;
    const style = getComputedStyle(cell);
    const clips = style.overflow !== 'visible' || style.overflowX !== 'visible';
    if (clips && style.textOverflow !== 'ellipsis' && cell.scrollWidth > cell.clientWidth + 1) problems.push(`"${describe(cell)}" is cut (${cell.scrollWidth} px in ${cell.clientWidth})`);
}
  // A badge is a word or two: cut to "TASK…" or "INSTALL" it says nothing (its label ellipsises).
  for (const label of document.querySelectorAll('main .mantine-Badge-label')) {
    if (visible(label) && label.scrollWidth > label.clientWidth + 1) problems.push(`the badge "${describe(label)}" is cut (${label.scrollWidth} px in ${label.clientWidth})`);
  }
  return problems;
}
