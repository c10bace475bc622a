import { Link } from 'react-router-dom';
import { StatusScreen } from '../../components/StatusScreen.tsx';

export function NotFoundPage() {
  return (
    <StatusScreen
      title="Page not found"
      action={
        <Link className="button" to="/">
          Go to the scene viewer
        </Link>
      }
    >
      <title>Page not found · Nature Wall</title>
      <p>There is no screen at this address.</p>
    </StatusScreen>
  );
}
