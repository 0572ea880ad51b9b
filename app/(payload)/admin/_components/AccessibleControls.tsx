'use client'
/**
 * Names for the stock views' controls that Payload 3.90.2 renders without one, and no option
 * reaches (docs/console.md, "Accessibility"): the list's row checkboxes (`aria-label=""`, upstream
 * #17376), the paginator's arrows (#17377), the document menu's "…" button, a date's clear button,
 * react-select's inputs (the field's label points at the wrapper, not the input) and its indicators
 * (focusable elements marked aria-hidden, #18139), the document tabs' list (links straight in a
 * `ul`) and the Versions tab (named "Versions" while it shows "Versions 3"). Each is mended after
 * Payload renders it, only where it is still unnamed, so a fixed upstream release makes the
 * mend a no-op; the browser walk (test/browser/consoleWalk.test.ts) runs axe on every stock page
 * and fails on a serious or critical finding, whatever Payload's next markup is.
 */
import React, { useEffect } from 'react'

const named = (el: Element) => (el.getAttribute('aria-label') ?? '').trim() !== '' || (el.textContent ?? '').trim() !== ''

function nameIfUnnamed(el: Element, name: string): void {
  if (!named(el) && !el.getAttribute('aria-labelledby')) el.setAttribute('aria-label', name)
}

/** The text a row shows first (its title), for its checkbox's name. */
function rowTitle(row: Element | null): string {
  const cells = row ? [...row.querySelectorAll('td')] : []
  for (const cell of cells) {
    if (cell.querySelector('input[type="checkbox"]')) continue
    const text = (cell.textContent ?? '').trim()
    if (text) return text.slice(0, 80)
  }
  return 'this row'
}

let labelIds = 0

function mend(root: ParentNode): void {
  for (const box of root.querySelectorAll<HTMLInputElement>('table tbody td input[type="checkbox"]')) {
    if (!(box.getAttribute('aria-label') ?? '').trim()) {
      box.removeAttribute('aria-labelledby')
      box.setAttribute('aria-label', `Select ${rowTitle(box.closest('tr'))}`)
    }
  }
  for (const arrow of root.querySelectorAll('.clickable-arrow--left')) nameIfUnnamed(arrow, 'Previous page')
  for (const arrow of root.querySelectorAll('.clickable-arrow--right')) nameIfUnnamed(arrow, 'Next page')
  for (const dots of root.querySelectorAll('.doc-controls .popup-button')) nameIfUnnamed(dots, 'More actions')
  for (const popup of root.querySelectorAll('.popup-button')) nameIfUnnamed(popup, 'Open menu')
  for (const clear of root.querySelectorAll('.date-time-picker__clear-button')) nameIfUnnamed(clear, 'Clear date')
  // react-select's indicators are pointer conveniences (the keyboard opens and clears from the input).
  for (const indicator of root.querySelectorAll('[aria-hidden="true"].dropdown-indicator, [aria-hidden="true"].clear-indicator')) {
    if (indicator.getAttribute('tabindex') !== '-1') indicator.setAttribute('tabindex', '-1')
  }
  // A searchable select's input (rs__input) or an unsearchable one's stand-in (react-select's DummyInput).
  for (const input of root.querySelectorAll<HTMLInputElement>('input.rs__input, input[id^="react-select-"][id$="-input"]')) {
    if (input.getAttribute('aria-labelledby') || (input.getAttribute('aria-label') ?? '').trim()) continue
    const label = input.closest('.field-type')?.querySelector('label.field-label')
    if (label) {
      if (!label.id) label.id = `console-field-label-${++labelIds}`
      input.setAttribute('aria-labelledby', label.id)
    } else {
      input.setAttribute('aria-label', input.closest('.dashboard-breadcrumb-select') ? 'Dashboard actions' : input.closest('.step-nav, nav') ? 'Go to' : 'Choose')
    }
  }
  // The document's views as links, not a list of divs and links.
  for (const tabs of root.querySelectorAll('ul.doc-tabs__tabs:not([role])')) tabs.setAttribute('role', 'none')
  for (const tab of root.querySelectorAll('a.doc-tab[aria-label], .doc-tab[aria-label]')) {
    const shown = (tab.textContent ?? '').replace(/\s+/g, ' ').trim()
    if (shown && tab.getAttribute('aria-label') !== shown) tab.setAttribute('aria-label', shown)
  }
}

export function AccessibleControls({ children }: { children?: React.ReactNode }) {
  useEffect(() => {
    mend(document)
    // Said on the page (the browser walk waits for it before a whole-page check): until the console's
    // scripts have run, a freshly loaded page is Payload's server markup alone.
    document.documentElement.dataset.accessibleControls = 'on'
    // In the observer's own turn (before the next paint or tab press): a few selector queries a
    // commit; its own attribute changes are not child or text changes, so it never wakes itself.
    const observer = new MutationObserver(() => mend(document))
    observer.observe(document.body, { childList: true, subtree: true, characterData: true })
    return () => observer.disconnect()
  }, [])
  return <>{children}</>
}
