/** `/setup`: the static guide to putting Nature Wall on screens (spec §2). */
import { Link } from 'react-router-dom';
import { Brand } from '../../components/Brand.tsx';
import './setup.css';

const STEPS = [
  {
    title: 'Add streams',
    text: 'Add live cameras in the admin dashboard: YouTube, Twitch, Vimeo, EarthCam and SkylineWebcams links, or direct HLS (.m3u8) and MP4 addresses. Use the debug view to check a link before you save it.',
  },
  {
    title: 'Build scenes',
    text: 'Group up to five streams into a scene, pick how they are chosen (manual, ranked or most recent) and a layout: grid, mosaic or feature.',
  },
  {
    title: 'Choose the default scene',
    text: 'The default scene is what the scene viewer and the kiosk tablets show. Change it and every screen switches within a moment, no reload needed.',
  },
  {
    title: 'Put it on screens',
    text: 'Open the Live Wall on big screens, and a kiosk page on each tablet: /streams/1 to /streams/5 show one position of the default scene, /scenes/<scene>/<position> one position of a given scene.',
  },
];

const SCREENS = [
  { to: '/', label: 'Scene viewer', text: 'The default scene with a clock and a bar of scenes.' },
  { to: '/app', label: 'Live Wall', text: 'A whole scene on one screen, no scrolling.' },
  { to: '/streams/1', label: 'Kiosk, position 1', text: 'One stream, full screen, for a tablet.' },
  { to: '/admin', label: 'Admin dashboard', text: 'Streams, scenes, discovery and quality.' },
  { to: '/submit', label: 'Submit a stream', text: 'Visitors suggest cameras for review.' },
];

export function SetupGuide() {
  return (
    <main className="setup">
      <title>Setup guide · Nature Wall</title>
      <header className="setup__header">
        <Brand />
        <h1>Setup guide</h1>
        <p>From an empty server to a wall of live nature cameras in four steps.</p>
      </header>
      <section aria-labelledby="steps-title">
        <h2 id="steps-title" className="setup__section-title">
          Next steps
        </h2>
        <ol className="setup__steps">
          {STEPS.map((step) => (
            <li key={step.title} className="setup__step">
              <h3>{step.title}</h3>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
      </section>
      <section aria-labelledby="kiosk-title" className="setup__note">
        <h2 id="kiosk-title" className="setup__section-title">
          Kiosk tablets look after themselves
        </h2>
        <p>
          Kiosk pages update the moment their stream or the default scene changes, reconnect on their own after a network
          drop, and refresh their stream automatically every 30 minutes as a safety net. Set the tablet to keep the screen on
          and open the page full screen.
        </p>
      </section>
      <section aria-labelledby="screens-title">
        <h2 id="screens-title" className="setup__section-title">
          Screens
        </h2>
        <ul className="setup__links">
          {SCREENS.map((screen) => (
            <li key={screen.to}>
              <Link to={screen.to} className="setup__link">
                <span className="setup__link-label">{screen.label}</span>
                <span className="setup__link-path">{screen.to}</span>
                <span className="setup__link-text">{screen.text}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </main>
  );
}
