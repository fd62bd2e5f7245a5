import type { ComponentProps } from 'react';
import { useIntl } from 'react-intl';
import { Button, FormGroup, InputGroup } from '@blueprintjs/core';
import './code-entry.css';

/**
 * A code typed at checkout and "Apply" (a discount code, a gift card): Enter applies it too, and
 * typing again clears the shop's last reason for refusing one.
 */
export function CodeEntry({ id, label, text, onText, problem, onProblem, onApply, checking, applyLabel, applyText, inputProps }: {
  id: string;
  label: string;
  text: string;
  onText: (text: string) => void;
  problem: string | null;
  onProblem: (message: string | null) => void;
  onApply: () => void;
  checking: boolean;
  /** The button's accessible name when "Apply" alone would be ambiguous on the page. */
  applyLabel?: string;
  /** The button's text ("Apply" unless said). */
  applyText?: string;
  inputProps?: Partial<ComponentProps<typeof InputGroup>>;
}) {
  const intl = useIntl();
  return (
    <FormGroup label={label} labelFor={id} intent={problem ? 'danger' : 'none'} helperText={problem ?? undefined}>
      <div className="code-entry">
        <InputGroup
          id={id}
          value={text}
          onValueChange={(value) => {
            onText(value);
            if (problem) onProblem(null);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              onApply();
            }
          }}
          intent={problem ? 'danger' : 'none'}
          autoComplete="off"
          {...inputProps}
        />
        <Button text={applyText ?? intl.formatMessage({ id: 'checkout.code.apply', defaultMessage: 'Apply' })} aria-label={applyLabel} onClick={onApply} loading={checking} />
      </div>
    </FormGroup>
  );
}
