import { useEffect, useRef, useState } from 'react';
import { playTime } from '@rules';
import { useIntl } from 'react-intl';
import './song-player.css';

/** The player that plays now: starting another pauses it. */
let current: HTMLAudioElement | null = null;

/**
 * One song with the shop's own player: play and pause, its title, a position slider the keyboard
 * moves (arrows, Home, End), and its length, read before it plays (the browser loads its metadata).
 */
export function SongPlayer({ title, src }: { title: string; src: string }) {
  const audio = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [position, setPosition] = useState(0);
  const [length, setLength] = useState(0);
  const intl = useIntl();

  useEffect(() => {
    const element = audio.current;
    if (!element) return;
    const read = () => {
      setLength(Number.isFinite(element.duration) ? element.duration : 0);
      setPosition(element.currentTime);
    };
    const state = () => setPlaying(!element.paused);
    const events = ['loadedmetadata', 'durationchange', 'timeupdate', 'seeked'] as const;
    for (const event of events) element.addEventListener(event, read);
    for (const event of ['play', 'pause', 'ended'] as const) element.addEventListener(event, state);
    read();
    return () => {
      for (const event of events) element.removeEventListener(event, read);
      for (const event of ['play', 'pause', 'ended'] as const) element.removeEventListener(event, state);
      if (current === element) current = null;
    };
  }, []);

  const toggle = () => {
    const element = audio.current;
    if (!element) return;
    if (!element.paused) return element.pause();
    if (current && current !== element) current.pause();
    current = element;
    void element.play().catch(() => setPlaying(false));
  };

  return (
    <div className={`song-player${playing ? ' song-player-playing' : ''}`}>
      <button type="button" className="song-player-play" aria-label={playing ? intl.formatMessage({ id: 'common.song.pause', defaultMessage: 'Pause {title}' }, { title }) : intl.formatMessage({ id: 'common.song.play', defaultMessage: 'Play {title}' }, { title })} onClick={toggle}>
        <span className="song-player-icon" aria-hidden="true" />
      </button>
      <span className="song-player-title">{title}</span>
      <span className="song-player-time">
        {playTime(position)} / {playTime(length)}
      </span>
      <input
        type="range"
        className="song-player-seek"
        min={0}
        max={Math.floor(length)}
        step={1}
        value={Math.floor(position)}
        aria-label={intl.formatMessage({ id: 'common.song.position', defaultMessage: 'Position in {title}' }, { title })}
        aria-valuetext={intl.formatMessage({ id: 'common.song.positionOf', defaultMessage: '{position} of {length}' }, { position: playTime(position), length: playTime(length) })}
        onChange={(event) => {
          const element = audio.current;
          if (!element) return;
          element.currentTime = Number(event.currentTarget.value);
          setPosition(element.currentTime);
        }}
      />
      <audio ref={audio} preload="metadata" src={src} />
    </div>
  );
}
