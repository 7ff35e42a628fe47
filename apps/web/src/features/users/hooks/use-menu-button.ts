import { type MouseEvent, useId, useState } from 'react';

/**
 * A button that opens a menu whose code loads lazily: the code starts loading when the button is
 * pointed at or focused, the menu mounts on first click. `buttonProps` go on the button; `menu`
 * on the menu.
 */
export function useMenuButton(loadMenu: () => Promise<unknown>) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [loaded, setLoaded] = useState(false);
  const menuId = useId();
  const buttonId = useId();
  return {
    loaded,
    buttonProps: {
      id: buttonId,
      'aria-haspopup': 'menu' as const,
      'aria-expanded': anchor !== null,
      'aria-controls': anchor ? menuId : undefined,
      onPointerEnter: () => void loadMenu(),
      onFocus: () => void loadMenu(),
      onClick: (event: MouseEvent<HTMLElement>) => {
        setLoaded(true);
        setAnchor(event.currentTarget);
      },
    },
    menu: { id: menuId, labelledBy: buttonId, anchor, onClose: () => setAnchor(null) },
  };
}
