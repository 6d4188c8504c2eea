import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useNavigate } from 'react-router';
import { signOut, useSession } from '../auth/session';

/** The account menu: the signed-in user, their account page, signing out. */
export function AccountMenu() {
  const session = useSession();
  const navigate = useNavigate();
  const user = session.user;
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className="account-trigger">
        <span aria-hidden="true" className="avatar">
          {(user?.username ?? '?').slice(0, 1).toUpperCase()}
        </span>
        <span className="visually-hidden">Account: </span>
        <span className="account-name">{user?.username}</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={4}>
          <DropdownMenu.Label className="menu-label">
            {user?.username} · {user?.role}
          </DropdownMenu.Label>
          <DropdownMenu.Item
            className="menu-item"
            // Unawaited: the router handles a failed navigation itself.
            onSelect={() => void navigate('/account')}
          >
            Account
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="menu-separator" />
          <DropdownMenu.Item className="menu-item" onSelect={() => void signOut().then(() => navigate('/sign-in'))}>
            Sign out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
