import { useEffect } from 'react';
import { Button, Callout } from '@blueprintjs/core';

export interface Message {
  text: string;
  intent: 'success' | 'danger';
}

export const MESSAGE_BAR_MS = 3000;

/** The message bar at the bottom of the Settings screen; it hides itself after 3000 ms. */
export function MessageBar({ message, onClose }: { message: Message | null; onClose: () => void }) {
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(onClose, MESSAGE_BAR_MS);
    return () => clearTimeout(timer);
  }, [message, onClose]);

  if (!message) return null;
  return (
    <div className="message-bar" role="status" aria-live="polite">
      <Callout intent={message.intent} icon={message.intent === 'success' ? 'tick-circle' : 'error'} compact>
        <div className="message-bar-row">
          <span>{message.text}</span>
          <Button variant="minimal" text="Close" onClick={onClose} />
        </div>
      </Callout>
    </div>
  );
}
