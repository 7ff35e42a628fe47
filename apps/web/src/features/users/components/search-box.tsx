import ClearIcon from '@mui/icons-material/Clear';
import SearchIcon from '@mui/icons-material/Search';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import OutlinedInput from '@mui/material/OutlinedInput';
import { SEARCH_MAX_LENGTH } from '@users-admin/contract';
import { memo, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

export const SEARCH_DEBOUNCE_MS = 300;

interface SearchBoxProps {
  /** The search in the URL. */
  value: string;
  onSearch: (search: string) => void;
}

/**
 * Searches 300 ms after the last keystroke, at once on Enter; clearing removes the search (SPEC.md §5).
 * Long as one piece: the typed text, its debounce and the URL's search keep one another in step.
 */
export const SearchBox = memo(function SearchBox({ value, onSearch }: SearchBoxProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  const [shownValue, setShownValue] = useState(value);
  const [pending, setPending] = useState<string | undefined>(undefined);
  const inputRef = useRef<HTMLInputElement>(null);

  // The URL's search changed. If it is not the search just sent from here (Back, Forward, a link),
  // show it; otherwise leave the text alone, as the user may have typed on meanwhile.
  if (value !== shownValue) {
    setShownValue(value);
    setPending(undefined);
    if (value !== pending) setText(value);
  }

  const search = useCallback(
    (next: string) => {
      setPending(next.trim());
      onSearch(next);
    },
    [onSearch],
  );

  useEffect(() => {
    if (text.trim() === value) return;
    const timer = window.setTimeout(() => search(text), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text, value, search]);

  return (
    // A bare outlined input: TextField would also bring in the Select and the other input variants.
    <OutlinedInput
      type="search"
      size="small"
      value={text}
      placeholder={t('users.search.placeholder')}
      onChange={(event) => setText(event.target.value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') search(text);
      }}
      inputRef={inputRef}
      inputProps={{ 'aria-label': t('users.search.placeholder'), maxLength: SEARCH_MAX_LENGTH }}
      sx={{
        width: { xs: '100%', md: 300 },
        bgcolor: 'background.paper',
        // The clear button below replaces the browser's own.
        '& input::-webkit-search-cancel-button': { display: 'none' },
      }}
      startAdornment={
        <InputAdornment position="start">
          <SearchIcon fontSize="small" />
        </InputAdornment>
      }
      endAdornment={
        text ? (
          <InputAdornment position="end">
            <IconButton
              size="small"
              edge="end"
              aria-label={t('users.search.clear')}
              onClick={() => {
                setText('');
                search('');
                inputRef.current?.focus();
              }}
            >
              <ClearIcon fontSize="small" />
            </IconButton>
          </InputAdornment>
        ) : null
      }
    />
  );
});
